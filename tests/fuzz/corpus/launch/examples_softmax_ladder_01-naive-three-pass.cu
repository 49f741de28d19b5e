// blocks of 4 warps, about one per SM, far too few to hide memory latency.
// rung: grid = cdiv(R,128); block = 128; smem = 0

