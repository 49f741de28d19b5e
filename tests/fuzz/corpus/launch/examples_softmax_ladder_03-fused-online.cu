// instead of three reads and a write: 3/4 of v2's DRAM traffic.
// rung: grid = cdiv(R,4); block = 128; smem = 0

