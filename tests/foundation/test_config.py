"""Where the CANN source repositories come from: ASCGEN_CANN_SOURCES names a folder of them side by side,
and a repository's own setting (ASCGEN_ASC_DEVKIT) overrides its entry."""
from ascgen import config


def test_cann_sources_name_each_repository_and_the_devkit_setting_wins(tmp_path, monkeypatch):
    for name in ("asc-devkit/include", "metadef", "opbase"):
        (tmp_path / "cann" / name).mkdir(parents=True)
    monkeypatch.delenv("ASCGEN_ASC_DEVKIT", raising=False)
    monkeypatch.delenv("ASCEND_HOME_PATH", raising=False)
    monkeypatch.setenv("ASCGEN_CANN_SOURCES", str(tmp_path / "cann"))
    assert config.cann_repository("metadef") == tmp_path / "cann" / "metadef"
    assert config.cann_repository("ops-tensor") is None                    # not in the folder
    assert config.asc_devkit() == config.cann_repository("asc-devkit") == tmp_path / "cann" / "asc-devkit"
    monkeypatch.setenv("ASCGEN_ASC_DEVKIT", str(tmp_path / "own"))
    assert config.cann_repository("asc-devkit") == tmp_path / "own"
    monkeypatch.delenv("ASCGEN_CANN_SOURCES")
    assert config.cann_repository("metadef") is None


def test_a_folder_another_process_tags_and_fills_during_the_claim_is_ours(tmp_path, monkeypatch):
    """Three builders on a new cache folder: one tags it and writes an entry between another's tag check
    and its look inside. That folder is an ascgen cache, not a foreign one (no move to its ascgen/ subfolder)."""
    folder = tmp_path / "cache"
    folder.mkdir()
    real_scandir = config.os.scandir

    def other_process_first(path):
        if not (folder / config.CACHE_TAG).exists():
            (folder / config.CACHE_TAG).write_text("tag")
            (folder / "compilers.json").write_text("{}")
        return real_scandir(path)

    monkeypatch.setattr(config.os, "scandir", other_process_first)
    assert config._claim(folder) == "ours"
