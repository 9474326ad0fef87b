/* row_llmc_losses_then_mean_loss_two_regions: llm.c's crossentropy_forward and the mean
 * loss gpt2_forward computes after it: each token's loss -log(probs[bt][target]) stored
 * (the probabilities clamped away from 0 and negatives, as the harness's data are signed),
 * then `float mean_loss = 0; for (i) mean_loss += losses[i]; mean_loss /= B*T;` as a
 * second loop, stored through the model's pointer after it.
 * Style: llm.c's (probs already softmaxed, fp32, int targets, a flat BT loop). */
#include <math.h>

void crossentropy_mean(int BT, int Vp, const float probs[BT][Vp], const int targets[BT], float losses[BT], float *mean_loss)
{
#pragma fuse kernel(crossentropy_forward) parallel(bt)
	for (int bt = 0; bt < BT; bt++)
		losses[bt] = -logf(fmaxf(probs[bt][targets[bt]], 1e-6f));
	float mean = 0.0f;
#pragma fuse kernel(mean_loss) parallel(i)
	for (int i = 0; i < BT; i++)
		mean += losses[i];
	mean /= BT;
	*mean_loss = mean;
}
