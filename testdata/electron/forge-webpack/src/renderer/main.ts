console.log('renderer');
