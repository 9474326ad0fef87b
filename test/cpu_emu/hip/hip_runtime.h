/* cpu_emu/hip/hip_runtime.h: the HIP names fusecc's .hip launchers use, spelled as the
 * CPU emulation's CUDA ones (see ../cuda_runtime.h). */
#ifndef FUSECC_CPU_EMU_HIP_RUNTIME_H
#define FUSECC_CPU_EMU_HIP_RUNTIME_H
#include <cuda_runtime.h>
typedef cudaError_t hipError_t;
typedef cudaStream_t hipStream_t;
#define hipSuccess cudaSuccess
#define hipErrorInvalidValue cudaErrorInvalidValue
#define hipGetLastError cudaGetLastError
#define hipMallocAsync cudaMallocAsync
#define hipFreeAsync cudaFreeAsync
#define hipGetDevice cudaGetDevice
#define hipDeviceGetAttribute cudaDeviceGetAttribute
#define hipDeviceAttributeMultiprocessorCount cudaDevAttrMultiProcessorCount
#define hipDeviceAttributeMaxSharedMemoryPerMultiprocessor cudaDevAttrMaxSharedMemoryPerMultiprocessor
#define hipDeviceAttributeMaxSharedMemoryPerBlock cudaDevAttrMaxSharedMemoryPerBlockOptin
#define hipFuncSetAttribute cudaFuncSetAttribute
#define hipOccupancyMaxActiveBlocksPerMultiprocessor cudaOccupancyMaxActiveBlocksPerMultiprocessor
#define hipFuncAttributeMaxDynamicSharedMemorySize cudaFuncAttributeMaxDynamicSharedMemorySize
#endif
