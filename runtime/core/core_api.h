/* The C surface of the core runtime that Python reads with cffi (ascgen/runtime/core.py, the only module
 * calling it). Declarations only, plain C, no preprocessor logic: cffi's cdef parses this text as is.
 * Strings returned by ascgen_result_* stay valid until the next ascgen_run_start / host session.
 * C++ files include it inside extern "C" (state.h); core.py drops the #pragma line before cdef. */
#pragma once

typedef struct {
    const char* name;          /* kernel entry name, for messages */
    const char* source;        /* source file path, for messages */
    void (*entry)(void**);     /* the module trampoline: calls the kernel with args */
    void** args;
    int block_dim;
    int kernel_type;           /* 0 aiv, 1 aic, 2 mix 1:1, 3 mix 1:2 */
    int uses_wait;             /* the source calls WaitPreTaskEnd (textual, like the SK compiler) */
    int uses_set;
    int uses_sync_all;         /* the source calls SyncAll (feed-sync-all complements only such tasks) */
} ascgen_task;

typedef struct {
    const char* name;
    unsigned long long address;
    unsigned long long nbytes;
    const char* dtype;
} ascgen_buffer;

typedef struct {
    const char* product;       /* product id, for messages */
    int npu_arch;
    int separated;             /* 0: coupled (one core type, reported as AIV) */
    unsigned long long ub_capacity;
    int aic_count;             /* launch geometry, computed by ascgen/runtime/geometry.py */
    int aiv_count;
    int ratio;                 /* AIVs per AIC group: 1 or 2 (0 when one core type only) */
    int superkernel;           /* 0: plain launch (task-sync calls are no-ops) */
    int effective;             /* task sync has an effect (product "effective" or treat_as_effective) */
    int early_start;           /* 0, 1, 2 (stream-fusion already folded in: 0) */
    int feed_sync_all;
    int debug_sync_all;
    int aic_pipe_default;      /* pipe of the SK's implicit AIC set (FIX or MTE3 per product) */
    int aiv_pipe_default;
    int detect_races;
    int timeline;
    long long schedule_seed;   /* -1: none */
    double time_limit_s;
    double cancel_grace_s;     /* how long cancelled cores get to reach an API call (0: 3 s) */
    int echo_output;           /* also write printf lines to stdout as they come */
    double flag_round_cycles;  /* timeline parameters (docs/timeline.md) */
    double task_launch_cycles;
    double mte_bytes_per_cycle;
    double vec_elems_per_cycle;
    double cube_elems_per_cycle;
    double scalar_cycles;
} ascgen_config;

typedef struct {
    int kind;                  /* ascgen::rt::Fault */
    const char* message;       /* the full report (==== block) */
    const char* core;          /* "AIV3" or "" */
    int task;                  /* -1 when none */
    const char* kernel;
    const char* file;
    int line;
} ascgen_fault;

typedef struct {
    const char* file;
    int line;
    const char* severity;
    const char* rule;
    const char* message;
} ascgen_lint;

typedef struct {
    int core;
    const char* core_label;
    int task;
    const char* kernel;
    unsigned long long addr;
    unsigned long long bytes;
    int write;
    const char* file;
    int line;
    int window;                /* 0 ordered part, 1 prologue before the wait, 2 tail after the set */
    const char* buffer;        /* name of the GM buffer holding addr ("" if none) */
    unsigned long long offset; /* byte offset of addr in that buffer */
    const char* dtype;
} ascgen_access;

typedef struct {
    ascgen_access earlier;
    ascgen_access later;
    const char* call_file;
    int call_line;
} ascgen_race;

typedef struct {
    int core;
    const char* core_label;
    int task;
    int kind;                  /* timeline::Mark */
    double t;
    const char* file;
    int line;
} ascgen_event;

/* ---- runs: one at a time per process ---- */
/* Start the cores. Returns 0, or -1 with a message in err (bad config; nothing started). */
int ascgen_run_start(const ascgen_config* cfg, const ascgen_task* tasks, int ntasks,
                     const ascgen_buffer* buffers, int nbuffers, char* err, int errlen);
/* Wait up to `seconds` for the run; 1 when every core has finished (or the run was stopped), else 0.
 * Enforces the time limit. Python calls it in a loop so Ctrl-C stays responsive. */
int ascgen_run_wait(double seconds);
/* Stop the run from outside (KeyboardInterrupt): every core is cancelled. */
void ascgen_run_interrupt(void);
/* Join the threads and run the end-of-run checks. Returns the fault kind (0 none). */
int ascgen_run_finish(void);

/* ---- results of the last run (or host session) ---- */
int ascgen_result_fault(ascgen_fault* out);
const char* ascgen_result_output(void);
int ascgen_result_lint_count(void);
void ascgen_result_lint(int i, ascgen_lint* out);
int ascgen_result_race_count(void);
void ascgen_result_race(int i, ascgen_race* out);
int ascgen_result_event_count(void);
void ascgen_result_event(int i, ascgen_event* out);
int ascgen_threads_left(void);        /* core threads that could not be stopped (never called the API) */

/* ---- kernels launched by hand-written host programs (<<<>>>, ICPU_RUN_KF) ---- */
void ascgen_register_kernel(const char* name, int kernel_type, int uses_wait, int uses_set);
/* Host programs run between begin and end; their launches use cfg (geometry fields ignored). */
void ascgen_host_session_begin(const ascgen_config* cfg);
int ascgen_host_session_end(void);    /* fault kind of the first failed launch, 0 if none */
int ascgen_host_launch_count(void);
/* Call a host program's main on this thread; a fault in one of its launches unwinds it (*stopped = 1). */
int ascgen_call_main(int (*main_fn)(int, char**), int argc, char** argv, int* stopped);

/* A loaded relocatable module's source folder: its "/<ascgen-source-folder>/..." names are reported under it
   (ascgen/runtime/build/relocate.py). `module`: the path the module was dlopen-ed with. */
void ascgen_source_root(const char* module, const char* root);

/* The timeline parameters' documented defaults (timeline.h), written into cfg. */
void ascgen_timeline_defaults(ascgen_config* cfg);

/* ---- GM registrations made by the host side (for tests and acl emulation) ---- */
int ascgen_gm_allocation_count(void);
