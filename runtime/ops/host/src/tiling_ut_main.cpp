// ascgen: the main of an operator repository's op_host tiling UT program (`ascgen ut --host`).
//
// What the repositories' own tests/ut/op_host/test_op_host_main.cpp does, without its closed pieces: before
// the cases run, an empty op-implementation space registry is made the default one, so
// gert::DefaultOpImplSpaceRegistryV2::GetInstance().GetSpaceRegistry() (the test helpers' way to the tiling
// functions) answers, and an op type the registry has not loaded falls back to the process's own
// registrations (metadef's OpImplSpaceRegistryImpl::GetOpImpl: gert::OpImplRegistry, where the op's
// IMPL_OP_OPTILING linked into this program put its functions). The repositories' main also sets
// fe::PlatformInfoManager's compilation options and pins the loaded libraries; neither matters here: the
// tests fill their own platform information, and nothing is loaded with dlopen.
#include <gtest/gtest.h>

#include <memory>

#include "base/registry/op_impl_space_registry_v2.h"

namespace {

class SpaceRegistryEnvironment : public testing::Environment {
public:
    void SetUp() override
    {
        gert::DefaultOpImplSpaceRegistryV2::GetInstance().SetSpaceRegistry(
            std::make_shared<gert::OpImplSpaceRegistryV2>());
    }
    void TearDown() override { gert::DefaultOpImplSpaceRegistryV2::GetInstance().SetSpaceRegistry(nullptr); }
};

}  // namespace

int main(int argc, char** argv)
{
    testing::InitGoogleTest(&argc, argv);
    testing::AddGlobalTestEnvironment(new SpaceRegistryEnvironment());
    return RUN_ALL_TESTS();
}
