// ascgen devkit backend: examples include this under ASCENDC_CPU_DEBUG for the CPU launch helpers of
// CANN's model. ascgen rewrites `kernel<<<...>>>(args)` itself (runtime/host_rewrite.py), so nothing is needed.
#pragma once
