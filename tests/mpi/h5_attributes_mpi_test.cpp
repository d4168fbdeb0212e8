// Attributes of every supported type round-trip, root's value wins, and a wrong or missing
// attribute is a clean H5Error.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "../support/shared_temp_file.hpp"
#include "wormnet/h5/h5_error.hpp"
#include "wormnet/h5/h5_file.hpp"

namespace wormnet::io {
namespace {

/// `root_value` on rank 0, something else on every other rank.
template <class T>
T root_only(const Communicator& c, T root_value, T other) {
  return c.is_root() ? root_value : other;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const H5Error& e) {
    return e.what();
  }
  return "(no H5Error)";
}

TEST(Attributes, EveryTypeRoundTripsWithRootsValue) {
  const Communicator w = Communicator::world();
  test::SharedTempFile tmp(w, "attrs");
  const std::string config = "[network]\ntopology = \"honeycomb\"\nt = 6\n";  // multi-line
  const std::vector<std::int64_t> dims{16, 16, -1};
  const std::vector<double> loads{0.05, 0.1, 1e-300, -2.5};
  const std::vector<std::string> names{"cycle", "latency_mean", "", "ünïcode"};
  {
    H5File file = H5File::create(w, tmp.path(), "-o");
    const H5Group root = file.root();
    root.set_attribute("config", root_only<std::string>(w, config, "not root"));
    root.set_attribute("int64",
                       root_only<std::int64_t>(w, std::numeric_limits<std::int64_t>::min(), 7));
    root.set_attribute("uint64",
                       root_only<std::uint64_t>(w, std::numeric_limits<std::uint64_t>::max(), 7));
    root.set_attribute("double", root_only<double>(w, 0.1, 7.0));
    root.set_attribute(
        "dims", std::span<const std::int64_t>(root_only<std::vector<std::int64_t>>(w, dims, {1})));
    root.set_attribute("loads",
                       std::span<const double>(root_only<std::vector<double>>(w, loads, {})));
    root.set_attribute("names", std::span<const std::string>(
                                    root_only<std::vector<std::string>>(w, names, {"x"})));
    root.set_attribute("no_ints", std::span<const std::int64_t>());
    root.set_attribute("small_int", 42);        // int -> int64
    root.set_attribute("small_unsigned", 42U);  // unsigned -> uint64
    const H5DataSet ds = root.write_dataset<double>("d", loads);
    ds.set_attribute("unit", "flits/node/cycle");
    file.close();
  }
  H5File file = H5File::open_read_only(w, tmp.path(), "-i");
  const H5Group root = file.root();
  EXPECT_EQ(root.attribute<std::string>("config"), config);
  EXPECT_EQ(root.attribute<std::int64_t>("int64"), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(root.attribute<std::uint64_t>("uint64"), std::numeric_limits<std::uint64_t>::max());
  EXPECT_EQ(root.attribute<double>("double"), 0.1);
  EXPECT_EQ(root.attribute<std::vector<std::int64_t>>("dims"), dims);
  EXPECT_EQ(root.attribute<std::vector<double>>("loads"), loads);
  EXPECT_EQ(root.attribute<std::vector<std::string>>("names"), names);
  EXPECT_TRUE(root.attribute<std::vector<std::int64_t>>("no_ints").empty());
  EXPECT_EQ(root.attribute<std::int64_t>("small_int"), 42);
  EXPECT_EQ(root.attribute<std::uint64_t>("small_unsigned"), 42U);
  EXPECT_EQ(root.open_dataset("d").attribute<std::string>("unit"), "flits/node/cycle");
  EXPECT_EQ(root.attribute_names(),
            (std::vector<std::string>{"config", "dims", "double", "int64", "loads", "names",
                                      "no_ints", "small_int", "small_unsigned", "uint64"}));
}

TEST(Attributes, RewritingWithAnotherLengthOrTypeReplacesTheValue) {
  const Communicator w = Communicator::world();
  test::SharedTempFile tmp(w, "rewrite");
  H5File file = H5File::create(w, tmp.path(), "-o");
  const H5Group root = file.root();
  root.set_attribute("status", "running");
  root.set_attribute("status", "interrupted");  // longer
  EXPECT_EQ(root.attribute<std::string>("status"), "interrupted");
  root.set_attribute("status", "failed");  // shorter
  EXPECT_EQ(root.attribute<std::string>("status"), "failed");
  const std::vector<double> two{1, 2};
  const std::vector<double> three{3, 4, 5};
  root.set_attribute("v", std::span<const double>(two));
  root.set_attribute("v", std::span<const double>(three));
  EXPECT_EQ(root.attribute<std::vector<double>>("v"), three);
  root.set_attribute("v", std::int64_t{9});  // another type
  EXPECT_EQ(root.attribute<std::int64_t>("v"), 9);
  EXPECT_TRUE(root.has_attribute("v"));
  root.remove_attribute("v");
  EXPECT_FALSE(root.has_attribute("v"));
  EXPECT_THROW(root.remove_attribute("v"), H5Error);
  // A rewritten file reads the same after closing.
  file.close();
  H5File again = H5File::open_read_only(w, tmp.path(), "-i");
  EXPECT_EQ(again.root().attribute<std::string>("status"), "failed");
  EXPECT_EQ(again.root().attribute_names(), (std::vector<std::string>{"status"}));
}

TEST(Attributes, MissingOrWrongTypeIsACleanError) {
  const Communicator w = Communicator::world();
  test::SharedTempFile tmp(w, "wrong");
  H5File file = H5File::create(w, tmp.path(), "-o");
  const H5Group root = file.root();
  root.set_attribute("count", std::int64_t{3});
  root.set_attribute("name", "H6");
  const std::vector<double> xs{1.0};
  root.set_attribute("xs", std::span<const double>(xs));

  const std::string missing = error_of([&] { static_cast<void>(root.attribute<double>("nope")); });
  EXPECT_NE(missing.find("attribute 'nope' is missing"), std::string::npos) << missing;
  EXPECT_NE(missing.find(tmp.path()), std::string::npos) << missing;

  const std::string wrong =
      error_of([&] { static_cast<void>(root.attribute<std::string>("count")); });
  EXPECT_NE(wrong.find("attribute 'count' holds int64, not string"), std::string::npos) << wrong;
  const std::string sign =
      error_of([&] { static_cast<void>(root.attribute<std::uint64_t>("count")); });
  EXPECT_NE(sign.find("holds int64, not uint64"), std::string::npos) << sign;
  const std::string shape = error_of([&] { static_cast<void>(root.attribute<double>("xs")); });
  EXPECT_NE(shape.find("holds float64 array of 1, not float64"), std::string::npos) << shape;
  const std::string scalar =
      error_of([&] { static_cast<void>(root.attribute<std::vector<std::string>>("name")); });
  EXPECT_NE(scalar.find("holds string, not string array"), std::string::npos) << scalar;
}

TEST(Attributes, WritingToAReadOnlyFileIsAnError) {
  const Communicator w = Communicator::world();
  test::SharedTempFile tmp(w, "readonly");
  H5File::create(w, tmp.path(), "-o").close();
  H5File file = H5File::open_read_only(w, tmp.path(), "-i");
  EXPECT_TRUE(file.read_only());
  EXPECT_THROW(file.root().set_attribute("x", 1.0), H5Error);
  EXPECT_THROW(file.root().create_group("g"), H5Error);
}

}  // namespace
}  // namespace wormnet::io
