// Which launcher started the process and whether its ranks share one machine, from
// environments written out by hand (what Open MPI's mpiexec, SLURM's srun and MPICH's hydra
// set for the processes they start).
#include "wormnet/parallel/launcher.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

namespace wormnet {
namespace {

// The environment a test looks up (a plain function pointer cannot capture one).
std::map<std::string, std::string> g_environment;  // NOLINT: test fixture state only

const char* lookup(const char* name) {
  const auto it = g_environment.find(name);
  return it == g_environment.end() ? nullptr : it->second.c_str();
}

class Launcher : public ::testing::Test {
 protected:
  void SetUp() override { g_environment.clear(); }
  static void set(std::map<std::string, std::string> variables) {
    g_environment = std::move(variables);
  }
};

TEST_F(Launcher, AProcessStartedAloneIsASingletonOnOneNode) {
  EXPECT_FALSE(started_by_launcher(lookup));
  EXPECT_TRUE(ranks_share_one_node(lookup));
  // Open MPI sets these in a singleton's own MPI_Init: still no launcher.
  set({{"PMIX_RANK", "0"}, {"OMPI_MCA_ess", "singleton"}});
  EXPECT_FALSE(started_by_launcher(lookup));
  EXPECT_TRUE(ranks_share_one_node(lookup));
}

TEST_F(Launcher, OpenMpisRanksShareTheNodeWhenAllAreLocal) {
  set({{"OMPI_COMM_WORLD_SIZE", "2"}, {"OMPI_COMM_WORLD_LOCAL_SIZE", "2"}});
  EXPECT_TRUE(started_by_launcher(lookup));
  EXPECT_TRUE(ranks_share_one_node(lookup));
  set({{"OMPI_COMM_WORLD_SIZE", "64"}, {"OMPI_COMM_WORLD_LOCAL_SIZE", "32"}});
  EXPECT_FALSE(ranks_share_one_node(lookup));
  // Without the local size, or with text that is not a count, nothing is known.
  set({{"OMPI_COMM_WORLD_SIZE", "2"}});
  EXPECT_FALSE(ranks_share_one_node(lookup));
  set({{"OMPI_COMM_WORLD_SIZE", "2"}, {"OMPI_COMM_WORLD_LOCAL_SIZE", "2x"}});
  EXPECT_FALSE(ranks_share_one_node(lookup));
  set({{"OMPI_COMM_WORLD_SIZE", "0"}, {"OMPI_COMM_WORLD_LOCAL_SIZE", "0"}});
  EXPECT_FALSE(ranks_share_one_node(lookup));
}

TEST_F(Launcher, ASlurmStepSharesANodeWhenItHasOne) {
  set({{"SLURM_PROCID", "1"}, {"SLURM_STEP_ID", "0"}, {"SLURM_STEP_NUM_NODES", "1"}});
  EXPECT_TRUE(started_by_launcher(lookup));
  EXPECT_TRUE(ranks_share_one_node(lookup));
  set({{"SLURM_PROCID", "1"}, {"SLURM_STEP_ID", "0"}, {"SLURM_STEP_NUM_NODES", "4"}});
  EXPECT_FALSE(ranks_share_one_node(lookup));
  set({{"SLURM_PROCID", "1"}, {"SLURM_STEP_ID", "0"}});
  EXPECT_FALSE(ranks_share_one_node(lookup));
  // A batch script's own shell (SLURM_PROCID without a step) started no rank.
  set({{"SLURM_PROCID", "0"}, {"SLURM_STEP_NUM_NODES", "1"}});
  EXPECT_FALSE(started_by_launcher(lookup));
}

// What MpiSession sets before MPI_Init: shared memory for ranks on one machine; for a process
// started alone also no daemon (a singleton that never spawns needs none), in a session
// directory of its own (isolated singletons all have the same job name).
TEST_F(Launcher, AProcessStartedAloneStartsNoDaemonAndRanksOnOneNodeUseSharedMemory) {
  const MpiStartSetting pml{"OMPI_MCA_pml", "ob1"};
  const MpiStartSetting isolated{"OMPI_MCA_ess_singleton_isolated", "1"};
  const MpiStartSetting own{"OMPI_MCA_orte_jobfam_session_dir", "/scratch/own"};
  EXPECT_EQ(mpi_start_settings(lookup, "/scratch/own"),
            (std::vector<MpiStartSetting>{pml, isolated, own}));
  // No directory could be made: the daemon, with Open MPI's own layout.
  EXPECT_EQ(mpi_start_settings(lookup, ""), std::vector<MpiStartSetting>{pml});
  // The variables Open MPI sets in a singleton's own MPI_Init change nothing.
  set({{"PMIX_RANK", "0"}, {"OMPI_MCA_ess", "singleton"}});
  EXPECT_EQ(mpi_start_settings(lookup, "/scratch/own"),
            (std::vector<MpiStartSetting>{pml, isolated, own}));
  set({{"OMPI_COMM_WORLD_SIZE", "2"}, {"OMPI_COMM_WORLD_LOCAL_SIZE", "2"}});
  EXPECT_EQ(mpi_start_settings(lookup, "/scratch/own"), std::vector<MpiStartSetting>{pml});
  set({{"SLURM_PROCID", "1"}, {"SLURM_STEP_ID", "0"}, {"SLURM_STEP_NUM_NODES", "1"}});
  EXPECT_EQ(mpi_start_settings(lookup, "/scratch/own"), std::vector<MpiStartSetting>{pml});
  // Ranks on several nodes, or a launcher that does not say: Open MPI's defaults.
  set({{"OMPI_COMM_WORLD_SIZE", "64"}, {"OMPI_COMM_WORLD_LOCAL_SIZE", "32"}});
  EXPECT_TRUE(mpi_start_settings(lookup, "/scratch/own").empty());
  set({{"PMIX_RANK", "3"}});
  EXPECT_TRUE(mpi_start_settings(lookup, "/scratch/own").empty());
}

TEST_F(Launcher, EachProcessHasASessionDirectoryOfItsOwnWhereOpenMpiPutsItsOwn) {
  const std::string user = "/wormnet-mpi." + std::to_string(getuid()) + "/";
  set({{"TMPDIR", "/scratch"}});
  const std::string a = own_session_dir(lookup);
  const std::string b = own_session_dir(lookup);
  EXPECT_EQ(a.rfind("/scratch" + user + std::to_string(getpid()) + ".", 0), 0U) << a;
  EXPECT_NE(a, b);  // the start time tells two calls (two processes) apart
  set({{"TMPDIR", "/scratch"}, {"OMPI_MCA_orte_tmpdir_base", "/local"}});
  EXPECT_EQ(own_session_dir(lookup).rfind("/local" + user, 0), 0U);
  set({{"TMP", "/tmp2"}});
  EXPECT_EQ(own_session_dir(lookup).rfind("/tmp2" + user, 0), 0U);
  set({{"TMPDIR", ""}, {"TEMP", "/temp"}, {"TMP", "/tmp2"}});
  EXPECT_EQ(own_session_dir(lookup).rfind("/temp" + user, 0), 0U);
  set({});
  EXPECT_EQ(own_session_dir(lookup).rfind("/tmp" + user, 0), 0U);
}

TEST_F(Launcher, ASessionDirectoryIsMadeWithItsParentOrNotAtAll) {
  char base_template[] = "/tmp/wormnet-launcher-test.XXXXXX";
  const char* made = mkdtemp(base_template);
  ASSERT_NE(made, nullptr);
  const std::string base = made;
  const std::string dir = base + "/wormnet-mpi.0/123.456";
  EXPECT_TRUE(make_session_dir(dir));
  struct stat st {};
  ASSERT_EQ(stat(dir.c_str(), &st), 0);
  EXPECT_TRUE(S_ISDIR(st.st_mode));
  EXPECT_EQ(st.st_mode & 0777, 0700U);
  // Not twice (another process's), and a second one beside it under the same parent.
  EXPECT_FALSE(make_session_dir(dir));
  EXPECT_TRUE(make_session_dir(base + "/wormnet-mpi.0/123.457"));
  // A place that cannot hold one: a file as the parent, a missing grandparent, no slash.
  const std::string file = base + "/plain";
  std::FILE* f = std::fopen(file.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fclose(f);
  EXPECT_FALSE(make_session_dir(file + "/1.2"));
  EXPECT_FALSE(make_session_dir(base + "/missing/wormnet-mpi.0/1.2"));
  EXPECT_FALSE(make_session_dir("relative"));
  for (const char* leaf :
       {"/wormnet-mpi.0/123.456", "/wormnet-mpi.0/123.457", "/wormnet-mpi.0", "/plain"}) {
    std::remove((base + leaf).c_str());
  }
  EXPECT_EQ(rmdir(base.c_str()), 0);
}

TEST_F(Launcher, OtherLaunchersAreNotAssumedLocal) {
  set({{"PMI_RANK", "0"}, {"PMI_SIZE", "2"}});
  EXPECT_TRUE(started_by_launcher(lookup));
  EXPECT_FALSE(ranks_share_one_node(lookup));
  set({{"PMIX_RANK", "3"}});
  EXPECT_TRUE(started_by_launcher(lookup));
  EXPECT_FALSE(ranks_share_one_node(lookup));
}

}  // namespace
}  // namespace wormnet
