/* dc_ring_kv_window_splitk_d256_fp16.c: windowed decode with a circular (ring) KV cache
 * of L slots: the oldest live entry is at start[b], n_valid[b] entries are live, entry j
 * of the window is slot (start + j) % L. Gemma-2/3 local layers and StreamingLLM keep the
 * cache this way. #define D 256, fp16, nest b/h, scale passed in, the slot as an int
 * local, splitk over j. No array is read at plain j: the launcher sizes the chunks for
 * L keys (the ring), and the last chunk runs to n_valid[b]. */
#include <math.h>
#include <stdint.h>

#define D 256

void ring_decode(int B, int H, int L, float scale,
                 const _Float16 q[B][H][D], const _Float16 kcache[B][H][L][D],
                 const _Float16 vcache[B][H][L][D], const int32_t start[B],
                 const int32_t n_valid[B], _Float16 out[B][H][D])
{
#pragma fuse kernel(ring_decode) parallel(b, h) splitk(j)
    for (int b = 0; b < B; b++)
        for (int h = 0; h < H; h++) {
            float sc[L];
            float m = -INFINITY;
            for (int j = 0; j < n_valid[b]; j++) {
                int slot = (start[b] + j) % L;
                float t = 0.0f;
                for (int d = 0; d < D; d++)
                    t += (float)q[b][h][d] * (float)kcache[b][h][slot][d];
                sc[j] = t * scale;
                m = fmaxf(m, sc[j]);
            }
            float den = 0.0f;
            for (int j = 0; j < n_valid[b]; j++) {
                sc[j] = expf(sc[j] - m);
                den += sc[j];
            }
            float acc[D];
            for (int d = 0; d < D; d++) acc[d] = 0.0f;
            for (int j = 0; j < n_valid[b]; j++) {
                int slot = (start[b] + j) % L;
                for (int d = 0; d < D; d++)
                    acc[d] += sc[j] * (float)vcache[b][h][slot][d];
            }
            for (int d = 0; d < D; d++)
                out[b][h][d] = (_Float16)(acc[d] / den);
        }
}
