// stb_image for the fuzz targets: the implementation from Debian's header
// (libstb-dev, the same snapshot libstb.so is built from), compiled here with
// the fuzz instrumentation so that libFuzzer sees its branches and ASan its
// memory accesses. Its definitions take precedence over libstb.so's, which
// the library is linked with otherwise; the rest of the build is unchanged.
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>
