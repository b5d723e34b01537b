// The preload exposes named calls generated from the contract; the contract arrives with the console engine.
export {}
