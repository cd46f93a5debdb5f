// built preload
