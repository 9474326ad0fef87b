/* row_softmax_rowcopy_fp16.c: softmax over fp16 rows of a fixed width, fp16 output.
 * Style: the row is first copied into a local `float row[C]` (#define C 1024), the max is
 * seeded from row[0] and taken over the rest, the exponentials overwrite the copy in place
 * while they are summed, and the output is the copy divided by the sum. No strategy
 * clause: the fuser leaves it as written (the in-place exponentials depend on the max),
 * and the GPU keeps the local row in shared memory, one CTA per row. 4 spaces. */
#include <math.h>
#define C 1024
void softmax_copy(int R, const _Float16 x[R][C], _Float16 y[R][C])
{
#pragma fuse kernel(softmax_copy) parallel(r)
    for (int r = 0; r < R; r++) {
        float row[C];
        for (int c = 0; c < C; c++) row[c] = (float)x[r][c];
        float m = row[0];
        for (int c = 1; c < C; c++) m = fmaxf(m, row[c]);
        float sum = 0.0f;
        for (int c = 0; c < C; c++) {
            row[c] = expf(row[c] - m);
            sum += row[c];
        }
        for (int c = 0; c < C; c++) y[r][c] = (_Float16)(row[c] / sum);
    }
}
