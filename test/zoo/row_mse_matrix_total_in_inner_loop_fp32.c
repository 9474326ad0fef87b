/* row_mse_matrix_total_in_inner_loop_fp32: the MSE over a matrix, the cross-row total added in the inner loop (no row reduction) */
void mse(int R, int C, const float x[R][C], const float y[R][C], float *loss)
{
    float total = 0.0f;
#pragma fuse kernel(mse) parallel(r)
    for (int r = 0; r < R; r++)
        for (int c = 0; c < C; c++) { float d = x[r][c] - y[r][c]; total += d * d; }
    *loss = total / (R * C);
}
