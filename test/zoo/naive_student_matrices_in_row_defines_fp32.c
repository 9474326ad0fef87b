/* naive_student_matrices_in_row_defines_fp32: a student's attention with the full score
 * matrices `float S[SEQ][SEQ], P[SEQ][SEQ];` declared inside the loop over i and used at
 * row i only (S[i][j]): each iteration's matrix is one row. #defined sizes, fp32. */
/* h19: a student's first attention: all sizes #defined, every variable declared at the top
 * of the function (C89), full score matrix with separate nests per step and the
 * normalisation written into a second matrix P, no batch/head loops. fp32. */
#include <math.h>
#define SEQ 100
#define DIM 80
void attention(const float Q[SEQ][DIM], const float K[SEQ][DIM], const float V[SEQ][DIM], float O[SEQ][DIM])
{
    int i, j, k;
    float rowmax, rowsum;
#pragma fuse kernel(attention) parallel(i)
    for (i = 0; i < SEQ; i++) {
        float S[SEQ][SEQ];
        float P[SEQ][SEQ];
        for (j = 0; j < SEQ; j++) {
            S[i][j] = 0;
            for (k = 0; k < DIM; k++) S[i][j] += Q[i][k] * K[j][k];
            S[i][j] = S[i][j] / sqrtf(DIM);
        }
        rowmax = S[i][0];
        for (j = 1; j < SEQ; j++) if (S[i][j] > rowmax) rowmax = S[i][j];
        rowsum = 0;
        for (j = 0; j < SEQ; j++) { P[i][j] = expf(S[i][j] - rowmax); rowsum = rowsum + P[i][j]; }
        for (j = 0; j < SEQ; j++) P[i][j] = P[i][j] / rowsum;
        for (k = 0; k < DIM; k++) {
            O[i][k] = 0;
            for (j = 0; j < SEQ; j++) O[i][k] = O[i][k] + P[i][j] * V[j][k];
        }
    }
}
