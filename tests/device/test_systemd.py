"""The service unit and the installer: systemd accepts the unit, shellcheck the scripts, and the steps are right."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
SYSTEMD = ROOT / "systemd"
UNIT = SYSTEMD / "touchline.service"
ANALYZE = Path("/usr/bin/systemd-analyze")
SHELLCHECK = Path(sys.executable).with_name("shellcheck")


def unit_settings(text: str) -> dict[str, list[str]]:
    """Every key of the unit with all its values (keys such as DeviceAllow= repeat)."""
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "[")) and "=" in line:
            key, value = line.split("=", 1)
            found.setdefault(key, []).append(value)
    return found


def verify(unit_text: str, tmp_path: Path, *, with_binary: bool = True) -> subprocess.CompletedProcess[str]:
    """Run systemd-analyze verify on the unit inside a scratch root that holds systemd's own units and our binary.

    The root makes the check faithful: ExecStart= must name an executable that exists, and the unit is loaded
    with the dependencies it names (network-online.target, multi-user.target) as on a real system.
    """
    root = tmp_path / "root"
    shutil.copytree("/usr/lib/systemd/system", root / "usr/lib/systemd/system", symlinks=True)
    (root / "etc/systemd/system").mkdir(parents=True)
    (root / "etc/systemd/system/touchline.service").write_text(unit_text)
    if with_binary:
        binary = root / "opt/touchline/venv/bin/touchline"
        binary.parent.mkdir(parents=True)
        binary.write_text("#!/bin/sh\n")
        binary.chmod(0o755)
    return subprocess.run(
        [str(ANALYZE), "verify", f"--root={root}", "--man=no", "/etc/systemd/system/touchline.service"],
        capture_output=True, text=True,
    )


needs_analyze = pytest.mark.skipif(not ANALYZE.exists(), reason="systemd-analyze is not installed on this machine")


@needs_analyze
def test_systemd_accepts_the_unit_without_a_single_warning(tmp_path: Path) -> None:
    result = verify(UNIT.read_text(), tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (0, "", "")


@needs_analyze
def test_the_check_does_catch_a_misspelt_setting_and_a_missing_program(tmp_path: Path) -> None:
    misspelt = verify(UNIT.read_text().replace("WatchdogSec=", "WatchDogSec="), tmp_path / "a")
    assert "Unknown key 'WatchDogSec'" in misspelt.stderr
    missing = verify(UNIT.read_text(), tmp_path / "b", with_binary=False)
    assert missing.returncode != 0 and "/opt/touchline/venv/bin/touchline" in missing.stderr


def test_the_unit_notifies_restarts_and_runs_as_touchline_with_the_device_groups() -> None:
    settings = unit_settings(UNIT.read_text())
    assert settings["Type"] == ["notify"]
    assert int(settings["WatchdogSec"][0]) > 0
    assert settings["Restart"] == ["on-failure"]
    assert settings["User"] == ["touchline"]
    assert set(settings["SupplementaryGroups"][0].split()) == {"spi", "i2c", "gpio", "dialout"}
    assert settings["StateDirectory"] == ["touchline"]


def test_the_sandbox_is_strict_but_lets_the_table_reach_its_buses() -> None:
    settings = unit_settings(UNIT.read_text())
    for key, value in {"ProtectSystem": "strict", "ProtectHome": "yes", "PrivateTmp": "yes",
                       "NoNewPrivileges": "yes", "DevicePolicy": "closed"}.items():
        assert settings[key] == [value]
    allowed = {v.split()[0] for v in settings["DeviceAllow"]}
    # The names of /proc/devices for spidev, i2c-dev, the GPIO character devices and USB serial adapters.
    assert allowed == {"char-spi", "char-i2c", "char-gpiochip", "char-ttyUSB", "char-ttyACM"}
    assert "PrivateDevices" not in settings  # it would hide /dev/spidev* and the rest


@pytest.mark.parametrize("script", ["install.sh", "uninstall.sh", "common.sh"])
def test_the_scripts_pass_shellcheck(script: str) -> None:
    result = subprocess.run([str(SHELLCHECK), "-x", f"systemd/{script}"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def dry_run(*args: str) -> list[str]:
    result = subprocess.run(["bash", str(SYSTEMD / "install.sh"), "--dry-run", *args],
                            capture_output=True, text=True, check=True)
    return result.stdout.splitlines()


def test_a_pi_5_gets_rpi_lgpio_and_never_rpi_gpio() -> None:
    lines = dry_run("--model", "pi5")
    assert "Installing Touchline for a Raspberry Pi (pi5)." in lines
    pip = [line for line in lines if " -m pip install " in line]
    assert any("rpi-lgpio" in line for line in pip)
    assert not any("RPi.GPIO" in line for line in pip)
    assert any("--no-deps mfrc522==0.0.7" in line for line in pip)
    # A venv left by an older install loses RPi.GPIO, so only rpi-lgpio provides the module.
    assert any("pip uninstall --yes --quiet RPi.GPIO" in line for line in lines)


def test_the_installer_pins_the_same_pi_packages_as_the_project() -> None:
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["pi"]
    pip_line = next(line for line in dry_run("--model", "pi4") if "rpi-lgpio" in line)
    printed = pip_line.replace("\\", "").split()  # the dry run quotes like the shell: rpi-lgpio\>=0.6
    assert set(extra) <= set(printed)


def test_spi_with_three_selects_and_i2c_are_enabled_then_a_reboot_is_asked(tmp_path: Path) -> None:
    config = tmp_path / "config.txt"
    config.write_text("[all]\n")
    lines = dry_run("--model", "pi5", "--boot-config", str(config))
    for setting in ("dtparam=spi=on", "dtparam=i2c_arm=on", "dtoverlay=spi1-3cs"):
        assert f"+ append '{setting}' to {config}" in lines
    assert "+ systemctl enable touchline.service" in lines
    assert any("reboot" in line for line in lines)
    assert config.read_text() == "[all]\n"  # a dry run changes nothing


def test_with_spi_and_i2c_already_on_the_service_starts_at_once(tmp_path: Path) -> None:
    config = tmp_path / "config.txt"
    config.write_text("dtparam=spi=on\ndtparam=i2c_arm=on\ndtoverlay=spi1-3cs\n")
    lines = dry_run("--model", "zero2w", "--boot-config", str(config))
    assert not any(line.startswith("+ append") for line in lines)
    assert "+ systemctl enable --now touchline.service" in lines
    assert any("touchline pin --db /var/lib/touchline/touchline.db" in line for line in lines)


def test_the_owners_table_file_is_installed_where_the_unit_reads_it() -> None:
    lines = dry_run("--model", "pi4", "--table", "four-seats-hub")
    install = next(line for line in lines if line.endswith("/etc/touchline/table.toml"))
    assert "device/tables/four-seats-hub.toml" in install
    assert "--table /etc/touchline/table.toml" in UNIT.read_text()


def test_an_unknown_table_or_model_is_refused_before_any_step() -> None:
    for args, expected in ((["--table", "six-seats"], "No table file"), (["--model", "pi2"], "Unknown --model pi2")):
        result = subprocess.run(["bash", str(SYSTEMD / "install.sh"), "--dry-run", *args], capture_output=True, text=True)
        assert result.returncode == 2 and expected in result.stderr
        assert not any(line.startswith("+") for line in result.stdout.splitlines())


def test_uninstall_keeps_the_games_unless_purged() -> None:
    keep = subprocess.run(["bash", str(SYSTEMD / "install.sh"), "--dry-run", "--uninstall"],
                          capture_output=True, text=True, check=True).stdout
    assert "+ systemctl disable --now touchline.service" in keep and "+ rm -rf /opt/touchline" in keep
    assert "/var/lib/touchline" not in "".join(line for line in keep.splitlines() if line.startswith("+"))
    purge = subprocess.run(["bash", str(SYSTEMD / "uninstall.sh"), "--dry-run", "--purge"],
                           capture_output=True, text=True, check=True).stdout
    assert "+ rm -rf /var/lib/touchline /etc/touchline" in purge and "+ userdel touchline" in purge


def test_the_units_command_is_one_the_touchline_command_accepts() -> None:
    import shlex

    from device import cli

    command = shlex.split(unit_settings(UNIT.read_text())["ExecStart"][0])
    assert command[0] == "/opt/touchline/venv/bin/touchline"
    args = cli.build_parser().parse_args(command[1:])
    assert (args.command, args.sim) == ("run", False)
    assert args.table == cli.INSTALLED_TABLE  # where install.sh puts the table file


def test_the_bus_settings_go_under_all_models_and_i2c_dev_is_loaded(tmp_path: Path) -> None:
    # Bookworm's config.txt may end inside a model filter such as [cm5]: lines added there would apply to it alone.
    config = tmp_path / "config.txt"
    config.write_text("dtparam=audio=on\n[cm5]\ndtoverlay=dwc2,dr_mode=host\n")
    lines = dry_run("--model", "pi5", "--boot-config", str(config))
    appended = [line for line in lines if line.startswith("+ append")]
    assert appended[0] == f"+ append '[all]' to {config}"
    assert len(appended) == 4
    assert "+ write 'i2c-dev' to /etc/modules-load.d/touchline.conf" in lines
    ending_in_all = tmp_path / "all.txt"
    ending_in_all.write_text("[cm5]\ndtoverlay=dwc2\n[all]\n")
    assert not any("'[all]'" in line for line in dry_run("--model", "pi4", "--boot-config", str(ending_in_all)))
