/* row_vec_stats_setup_elements_numpy_fp32: running statistics of a long vector into the
 * elements of one output array: stats[0] the sum, stats[1] the sum of squares, stats[2] the
 * count of positives, each zeroed before the loop and added to in it; the mean and the
 * variance written into stats[3], stats[4] after the loop from the sums.
 * Style: a numpy port (np.sum, np.var, (x > 0).sum()) by a data scientist: a flat parallel
 * loop, a long index, three zeroings on one line. */
void vec_stats(long n, const float x[n], float stats[5])
{
    stats[0] = 0.0f; stats[1] = 0.0f; stats[2] = 0.0f;
#pragma fuse kernel(vec_stats) parallel(i)
    for (long i = 0; i < n; i++) {
        stats[0] += x[i];
        stats[1] += x[i] * x[i];
        if (x[i] > 0.0f) stats[2] += 1.0f;
    }
    stats[3] = stats[0] / n;
    stats[4] = stats[1] / n - stats[3] * stats[3];
}
