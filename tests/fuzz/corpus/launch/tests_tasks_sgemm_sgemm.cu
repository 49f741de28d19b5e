// Shared-memory tiled sgemm: one thread per element of C, T x T tiles.
// rung: grid = cdiv(N,32), cdiv(M,32); block = 32, 32
template <int T>
