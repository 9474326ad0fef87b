/* row_positive_mean_count_inc_inner_loop_fp32: the mean of the positive elements of a
 * matrix: a float sum and an int count (`npos++`) across the rows, both added to inside the
 * loop over the row's elements, the mean stored after the region. */
void pos_mean(int N, int M, const float x[N][M], float *out)
{
    float s = 0.0f;
    int npos = 0;
#pragma fuse kernel(pos_mean) parallel(i)
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            if (x[i][j] > 0.0f) { s += x[i][j]; npos++; }
    *out = npos ? s / npos : 0.0f;
}
