/* The test firmware's startup code is the example project's (examples/firmware/startup.c, which
 * docs/DEPLOY.md has users copy): every Cortex-M preset and consumer test boots through it, so the
 * example's startup is exercised on every board rfk tests (M0 to M55). */
#include "../../examples/firmware/startup.c"
