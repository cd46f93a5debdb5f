// development preload
