console.log("main v1");
