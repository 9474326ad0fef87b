/* row_sum_relu_helper_early_return_fp32: a row sum through a helper that clamps with an
 * early return (`if (x < 0) return 0; return x;`): the returns become an if/else into the
 * helper's result. */
#include <math.h>
static float relu_bias(float x)
{
    if (x < 0.0f) return 0.0f;
    return x;
}
void rows(int R, int C, const float x[R][C], float y[R])
{
#pragma fuse kernel(rows) parallel(r)
    for (int r = 0; r < R; r++) {
        float s = 0.0f;
        for (int c = 0; c < C; c++) s += relu_bias(x[r][c]);
        y[r] = s;
    }
}
