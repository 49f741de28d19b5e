// shuffles inside each warp, then across the 8 warps through shared memory.
// rung: grid = R; block = 256; smem = 0

