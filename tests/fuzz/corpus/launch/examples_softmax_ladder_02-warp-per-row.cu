// per SM, the second and third reads mostly miss L1 and L2 and go to DRAM.
// rung: grid = cdiv(R,4); block = 128; smem = 0

