/* cpu_emu/hip/hip_fp16.h: __half, as ../cuda_fp16.h. */
#include <cuda_fp16.h>
