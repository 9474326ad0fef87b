/* row_xent_target_picked_in_max_loop_int64_fp16.c: cross-entropy with an int64 class index,
 * the target logit picked inside the max loop (`if (c == target[t]) xt = x;`, one step of
 * the loop), then the sum of exponentials. fp16 logits read through a float local. */
#include <math.h>
#include <stdint.h>
void xent(int T, int V, const _Float16 logits[T][V], const int64_t target[T], float loss[T])
{
#pragma fuse kernel(xent) parallel(t) rolling(c)
    for (int t = 0; t < T; t++) {
        float m = -INFINITY, xt = 0.0f;
        for (int c = 0; c < V; c++) {
            float x = (float)logits[t][c];
            if (x > m) m = x;
            if (c == target[t]) xt = x;
        }
        float s = 0.0f;
        for (int c = 0; c < V; c++) s += expf((float)logits[t][c] - m);
        loss[t] = logf(s) + m - xt;
    }
}
