/* row_kd_kl_loss_total_in_class_loop_fp32: knowledge-distillation loss (Hinton): KL(softmax(t/T) || softmax(s/T)) * T^2, batchmean,
 * both log-softmaxes computed per row, sum of p_t * (logp_t - logp_s). fp32.
 * Style: DistilBERT training script ported to C. */
#include <math.h>
void kd_loss(int B, int V, float T, const float student[B][V], const float teacher[B][V], float *loss)
{
    float kl = 0.0f;
#pragma fuse kernel(kd_loss) parallel(b) rolling(v)
    for (int b = 0; b < B; b++) {
        float ms = -INFINITY, mt = -INFINITY;
        for (int v = 0; v < V; v++) { ms = fmaxf(ms, student[b][v] / T); mt = fmaxf(mt, teacher[b][v] / T); }
        float zs = 0.0f, zt = 0.0f;
        for (int v = 0; v < V; v++) { zs += expf(student[b][v] / T - ms); zt += expf(teacher[b][v] / T - mt); }
        float lzs = logf(zs) + ms, lzt = logf(zt) + mt;
        for (int v = 0; v < V; v++) {
            float lpt = teacher[b][v] / T - lzt;
            float lps = student[b][v] / T - lzs;
            kl += expf(lpt) * (lpt - lps);
        }
    }
    *loss = kl * T * T / B;
}
