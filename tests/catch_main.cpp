// The one translation unit that carries Catch2's main(); kept alone so it compiles once.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
