// `cpubrrr`: the all-in-one driver with every architecture (models/load_model).
#include "models/load_model.h"
#include "tools/cpubrrr/cli_main.h"

int main(int argc, char** argv) { return cpubrrr::CliMain(argc, argv, cpubrrr::AllArchitectures()); }
