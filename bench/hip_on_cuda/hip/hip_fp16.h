/* hip_on_cuda/hip/hip_fp16.h: see hip_runtime.h beside it. */
#include <cuda_fp16.h>
