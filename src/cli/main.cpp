// The `landform` command: a thin shell over the library. Each subcommand lives
// in its own cmd_*.cpp; this file wires them up and maps errors to exit codes.

#include <iostream>

#include "cli_common.hpp"
#include "landform/version.hpp"

int main(int argc, char** argv) {
  CLI::App app{"landform: terrain heightmaps and the maps that go with them, from JSON presets"};
  app.set_version_flag("--version", std::string("landform ") + landform::k_version);
  app.require_subcommand(1);
  landform::cli::setup_build(app);
  landform::cli::setup_validate(app);
  landform::cli::setup_stages(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& e) {
    return app.exit(e);
  } catch (const CLI::RuntimeError& e) {
    return e.get_exit_code();  // a subcommand failed and already said why
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return landform::cli::k_exit_usage;
  } catch (...) {
    return landform::cli::report_current_exception();
  }
  return landform::cli::k_exit_ok;
}
