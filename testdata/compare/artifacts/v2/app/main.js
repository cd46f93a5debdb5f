console.log("main v2, now longer");
