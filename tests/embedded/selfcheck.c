/* Embedded-model self-check, in C99 through the C API (rfk/rfk.h), for every platform rfk runs on:
 * x86 and aarch64/armhf Linux (every kernel table this CPU supports, in turn) and Cortex-M
 * firmware under qemu-system-arm (the scalar core; a Cortex-M55's Helium table too). Each fixture (fixtures.h, made by
 * `rfk export --vectors` on the host) embeds a model and test vectors with the host's outputs from
 * the scalar reference kernels; this program predicts every vector in place from the constant
 * arrays and checks:
 *   outputs   |got - want| <= 1e-4 * max(|want|, 1)    (1e-4 relative, absolute below 1)
 *   classes   equal, unless the host's decision is itself within that tolerance of a tie
 *   bin keys  bit-identical
 *   outputs on bare metal (no OS: the firmware's scalar core), the scalar table: bit-identical to
 *             the host's (f16, f16-scaled and int8 weights are widened exactly, no contraction);
 *             elsewhere the identical outputs are counted and printed only
 * It prints one line per fixture and table and returns non-zero on any mismatch, so CTest (and
 * qemu's exit code on bare metal) judges it. Nothing is allocated. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "fixtures.h"
#include "rfk/rfk.h"

#define TOLERANCE 1e-4f
#if defined(__linux__) || defined(__APPLE__) || defined(_WIN32)
#define EXACT_ON_SCALAR 0
#else
#define EXACT_ON_SCALAR 1 /* bare metal: the scalar table is the core the host's outputs came from */
#endif

typedef struct fixture {
  const char* name;
  const uint8_t* model;
  uint32_t bytes, count, input_dim, outputs, grids;
  const float* inputs;
  const float* want;
  const uint32_t* classes; /* NULL for regression */
  const uint32_t* keys;    /* NULL without a binning map; 32-bit halves, high word first */
} fixture;

static const fixture kFixtures[] = {
#define RFK_FIXTURE_ENTRY(name, NAME, classes, keys)                                              \
  {#name, name, NAME##_BYTES, NAME##_VECTORS, NAME##_INPUT_DIM, NAME##_OUTPUTS, NAME##_GRIDS,      \
   name##_inputs, name##_outputs, classes, keys},
    RFK_FIXTURE_LIST(RFK_FIXTURE_ENTRY)
#undef RFK_FIXTURE_ENTRY
};

/* Buffers sized for the largest fixture, statically. */
typedef union scratch_buffer {
#define RFK_FIXTURE_SCRATCH(name, NAME, classes, keys) uint8_t name[NAME##_SCRATCH_BYTES];
  RFK_FIXTURE_LIST(RFK_FIXTURE_SCRATCH)
#undef RFK_FIXTURE_SCRATCH
} scratch_buffer;
typedef union output_buffer {
#define RFK_FIXTURE_OUT(name, NAME, classes, keys) float name[NAME##_OUTPUTS];
  RFK_FIXTURE_LIST(RFK_FIXTURE_OUT)
#undef RFK_FIXTURE_OUT
} output_buffer;
typedef union key_buffer {
#define RFK_FIXTURE_KEYS(name, NAME, classes, keys) uint64_t name[NAME##_GRIDS + 1];
  RFK_FIXTURE_LIST(RFK_FIXTURE_KEYS)
#undef RFK_FIXTURE_KEYS
} key_buffer;

static scratch_buffer scratch RFK_ALIGNED;
static output_buffer out_buffer;
static key_buffer key_storage;
static uint32_t column_storage[sizeof(key_buffer) / sizeof(uint64_t)];

static float Deviation(float got, float want) {
  const float scale = fabsf(want) > 1.0f ? fabsf(want) : 1.0f;
  return fabsf(got - want) / scale;
}

/* Whether the host's own outputs leave the class decision within TOLERANCE of a tie. */
static int NearTie(const float* want, uint32_t k) {
  uint32_t i, best = 0;
  float second = -INFINITY;
  if (k == 1) return fabsf(want[0]) <= TOLERANCE;
  for (i = 1; i < k; ++i)
    if (want[i] > want[best]) best = i;
  for (i = 0; i < k; ++i)
    if (i != best && want[i] > second) second = want[i];
  return Deviation(want[best], second) <= 2 * TOLERANCE;
}

/* Returns the number of failures for one fixture with the active kernel table. */
static unsigned CheckFixture(const fixture* f, const char* table) {
  rfk_model model;
  rfk_model_error error;
  float* out = (float*)&out_buffer;
  uint64_t* keys = (uint64_t*)&key_storage;
  float worst = 0.0f;
  unsigned failures = 0, class_ok = 0, class_checked = 0, key_bad = 0, identical = 0;
  const int exact = EXACT_ON_SCALAR && strcmp(table, "scalar-scalar") == 0;
  uint32_t v, k, p;
  rfk_status s = rfk_open(&model, f->model, f->bytes, &error);
  if (s != RFK_OK) {
    printf("FAIL %s [%s]: rfk_open: %s at %s, offset %lu\n", f->name, table, rfk_status_message(s),
           error.field, (unsigned long)error.offset);
    return 1;
  }
  if (rfk_scratch_bytes(&model) > sizeof scratch || rfk_input_dim(&model) != f->input_dim ||
      rfk_num_outputs(&model) != f->outputs || rfk_num_grids(&model) != f->grids) {
    printf("FAIL %s [%s]: the model's shape differs from its header's macros\n", f->name, table);
    return 1;
  }
  for (v = 0; v < f->count; ++v) {
    const float* x = f->inputs + (size_t)v * f->input_dim;
    const float* want = f->want + (size_t)v * f->outputs;
    s = rfk_predict(&model, x, f->input_dim, &scratch, sizeof scratch, out, f->outputs);
    if (s != RFK_OK) {
      printf("FAIL %s [%s]: vector %lu: %s\n", f->name, table, (unsigned long)v, rfk_status_message(s));
      ++failures;
      continue;
    }
    for (k = 0; k < f->outputs; ++k) {
      const float dev = Deviation(out[k], want[k]);
      identical += memcmp(&out[k], &want[k], sizeof out[k]) == 0;
      if (!(dev <= TOLERANCE) || (exact && memcmp(&out[k], &want[k], sizeof out[k]) != 0)) {
        if (failures < 5)
          printf("FAIL %s [%s]: vector %lu output %lu: got %.9g, host %.9g\n", f->name, table,
                 (unsigned long)v, (unsigned long)k, (double)out[k], (double)want[k]);
        ++failures;
      }
      if (dev > worst) worst = dev;
    }
    /* The classes: the host's decision (rfk_decide_class: calibrated where the model has the
     * section) on the host's outputs is the same arithmetic on every target, so it must match
     * bit for bit; on this device's own outputs, the raw decision must match the host's raw one
     * away from a tie (the calibrated boundary is a tie of another function of the outputs). */
    if (f->classes != NULL) {
      ++class_checked;
      if (rfk_decide_class(&model, want) == f->classes[v] &&
          (NearTie(want, f->outputs) || rfk_decide_class_raw(&model, out) == rfk_decide_class_raw(&model, want)))
        ++class_ok;
      else
        ++failures;
    }
    if (f->keys != NULL) {
      s = rfk_compute_bins(&model, x, f->input_dim, &scratch, sizeof scratch, keys, column_storage,
                           f->grids);
      for (p = 0; p < f->grids; ++p) {
        const uint32_t* half = f->keys + 2 * ((size_t)v * f->grids + p);
        key_bad += s != RFK_OK || keys[p] != ((uint64_t)half[0] << 32 | half[1]);
      }
    }
  }
  failures += key_bad;
  /* The error in units of 1e-9, as an integer: newlib-nano's printf has no floats by default. */
  printf("%s %s [%s]: %lu vectors, max deviation %lue-9 (limit 100000e-9), outputs %u/%lu bit-identical%s, "
         "classes %u/%u, bin keys %lu/%lu identical\n",
         failures ? "FAIL" : "ok  ", f->name, table, (unsigned long)f->count,
         (unsigned long)(worst * 1e9f), identical, (unsigned long)(f->count * f->outputs),
         exact ? " (required)" : "", class_ok, class_checked,
         (unsigned long)(f->keys ? f->count * f->grids - key_bad : 0),
         (unsigned long)(f->keys ? f->count * f->grids : 0));
  return failures;
}

int main(void) {
  unsigned failures = 0;
  size_t t, i;
  const size_t tables = rfk_kernel_table_count();
  for (t = 0; t < tables; ++t) {
    char name[64];
    snprintf(name, sizeof name, "%s-%s", rfk_kernel_table_backend(t), rfk_kernel_table_target(t));
    if (!rfk_select_kernels(name)) {
      printf("FAIL cannot select kernel table %s\n", name);
      ++failures;
      continue;
    }
    for (i = 0; i < sizeof kFixtures / sizeof kFixtures[0]; ++i) failures += CheckFixture(&kFixtures[i], name);
  }
  printf("selfcheck: %lu kernel table(s) x %lu fixtures: %s\n", (unsigned long)tables,
         (unsigned long)(sizeof kFixtures / sizeof kFixtures[0]), failures ? "MISMATCH" : "all agree");
  return failures ? 1 : 0;
}
