/* A maximum across the rows that the row reads after taking it (y = x - gm) is a running
 * value, not a maximum the rows may take in any order: refused. */
#include <math.h>
void f(int N, int C, const float x[N][C], float y[N][C], float *g)
{
    float gm = -INFINITY;
#pragma fuse kernel(f) parallel(i)
    for (int i = 0; i < N; i++) {
        float m = -INFINITY;
        for (int c = 0; c < C; c++) m = fmaxf(m, x[i][c]);
        gm = fmaxf(gm, m);
        for (int c = 0; c < C; c++) y[i][c] = x[i][c] - gm;
    }
    *g = gm;
}
