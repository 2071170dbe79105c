// Every layer of the engine in one include, for the edges: the CLI, the module adapters, the tests
// and the benchmarks. The layers themselves include only the headers of the layers they may use
// (docs/architecture.md, "Layout"; the build enforces it).
#pragma once

#include "atomic_write.h"
#include "facts.h"
#include "reports.h"
