/* Row-wise log-softmax over a vocabulary (LM head output), bf16 in and out, #define VOCAB.
 * Style: loop names row/col; max via a plain if; the log-normaliser computed once as a local
 * (lse = mx + logf(sum)) and subtracted in the write pass; no strategy clause. */
#include <math.h>
#include "fusecc.h"

#define VOCAB 32000

void log_softmax_vocab(int ROWS, const fusecc_bf16 logits[ROWS][VOCAB],
		       fusecc_bf16 logp[ROWS][VOCAB])
{
#pragma fuse kernel(log_softmax_vocab) parallel(row)
	for (int row = 0; row < ROWS; row++) {
		float mx = -INFINITY;
		for (int col = 0; col < VOCAB; col++) {
			float x = fusecc_bf16_to_float(logits[row][col]);
			if (x > mx)
				mx = x;
		}
		float sum = 0.0f;
		for (int col = 0; col < VOCAB; col++)
			sum += expf(fusecc_bf16_to_float(logits[row][col]) - mx);
		const float lse = mx + logf(sum);
		for (int col = 0; col < VOCAB; col++)
			logp[row][col] = fusecc_float_to_bf16(fusecc_bf16_to_float(logits[row][col]) - lse);
	}
}
