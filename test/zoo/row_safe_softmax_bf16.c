/* row_safe_softmax_bf16.c: torch.softmax(x, dim=-1) on bf16 rows, bf16 output.
 * Style: loop names row / col, max with fmaxf from -FLT_MAX, sum of exp, then the map
 * that writes the normalised probability multiplied by a reciprocal local; no strategy
 * clause (parallel(row) only). 4 spaces, Allman braces. */
#include <float.h>
#include <math.h>
#include "fusecc.h"

void softmax_bf16(int ROWS, int COLS, const fusecc_bf16 x[ROWS][COLS], fusecc_bf16 y[ROWS][COLS])
{
#pragma fuse kernel(softmax_bf16) parallel(row)
    for (int row = 0; row < ROWS; row++)
    {
        float mx = -FLT_MAX;
        for (int col = 0; col < COLS; col++)
            mx = fmaxf(mx, fusecc_bf16_to_float(x[row][col]));
        float denom = 0.0f;
        for (int col = 0; col < COLS; col++)
            denom += expf(fusecc_bf16_to_float(x[row][col]) - mx);
        float inv = 1.0f / denom;
        for (int col = 0; col < COLS; col++)
            y[row][col] = fusecc_float_to_bf16(expf(fusecc_bf16_to_float(x[row][col]) - mx) * inv);
    }
}
