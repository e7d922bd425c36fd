// The `landform` command: a thin shell over the library. Each subcommand lives
// in its own cmd_*.cpp; this file wires them up and maps errors to exit codes.

#include <iostream>

#include "cli_common.hpp"
#include "landform/version.hpp"

int main(int argc, char** argv) {
  CLI::App app{"landform: terrain heightmaps and the maps that go with them, from JSON presets"};
  app.set_version_flag("--version", std::string("landform ") + landform::k_version);
  app.require_subcommand(1);
  // One line, prefixed like every other landform error.
  app.failure_message([](const CLI::App*, const CLI::Error& e) {
    return std::string("landform: error: ") + e.what() + " (see landform --help)\n";
  });
  landform::cli::setup_build(app);
  landform::cli::setup_watch(app);
  landform::cli::setup_validate(app);
  landform::cli::setup_stages(app);
  landform::cli::setup_outputs(app);
  landform::cli::setup_schema(app);
  landform::cli::setup_tiles(app);
  auto is_command = [&app](const std::string& name) {
    for (const CLI::App* sub : app.get_subcommands({})) {
      if (sub->get_name() == name) return true;
    }
    return false;
  };
  if (argc > 1 && argv[1][0] != '-' && !is_command(argv[1])) {
    std::cerr << "landform: error: unknown command \"" << argv[1]
              << "\"; commands: build, watch, validate, stages, outputs, schema, tiles\n";
    return landform::cli::k_exit_usage;
  }
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
