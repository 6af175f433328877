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


def test_the_table_starts_without_waiting_for_a_network() -> None:
    settings = unit_settings(UNIT.read_text())
    named = " ".join(settings.get("After", []) + settings.get("Wants", []) + settings.get("Requires", []))
    assert "network-online.target" not in named and "network.target" not in named


def bytes_of(size: str) -> int:
    """A systemd size such as 256M in bytes."""
    units = {"K": 1024, "M": 1024**2, "G": 1024**3}
    return int(size[:-1]) * units[size[-1]] if size[-1] in units else int(size)


def test_the_service_has_a_memory_ceiling_a_zero_2_w_can_afford_and_room_for_many_connections() -> None:
    settings = unit_settings(UNIT.read_text())
    high, ceiling = bytes_of(settings["MemoryHigh"][0]), bytes_of(settings["MemoryMax"][0])
    assert 128 * 1024**2 <= high < ceiling <= 384 * 1024**2, "well above the ~70 MB the table uses, well below 512 MB"
    assert int(settings["LimitNOFILE"][0]) >= 8192, "the default soft limit of 1,024 files runs out under many clients"


# /proc/devices names of the unit's DeviceAllow= groups, and the kernel module that registers each.
DEVICE_GROUP_MODULES = {"char-spi": "spidev", "char-i2c": "i2c-dev", "char-ttyACM": "cdc_acm", "char-ttyUSB": "usbserial",
                        "char-gpiochip": None}  # gpiolib is built into every Raspberry Pi OS kernel


def test_every_device_the_unit_allows_is_registered_before_the_service_starts(tmp_path: Path) -> None:
    # DeviceAllow=char-ttyACM is looked up in /proc/devices when the service starts: a hub plugged in later loads
    # cdc_acm too late, and its port could never be opened. The installer loads every such module at boot.
    allowed = {v.split()[0] for v in unit_settings(UNIT.read_text())["DeviceAllow"]}
    assert allowed == set(DEVICE_GROUP_MODULES)
    lines = dry_run("--model", "pi4", "--boot-config", str(tmp_path / "config.txt"))
    written = next(line for line in lines if "/etc/modules-load.d/touchline.conf" in line)
    loaded = set(written.split("'")[1].split())
    assert {m for m in DEVICE_GROUP_MODULES.values() if m} <= loaded
    for module in loaded:
        assert f"+ modprobe {module}" in lines
    # Default dependencies order the service after sysinit.target, which runs systemd-modules-load.service.
    assert "DefaultDependencies" not in unit_settings(UNIT.read_text())


def test_a_modules_file_from_an_older_install_is_brought_up_to_date(tmp_path: Path) -> None:
    lines = dry_run("--model", "pi4", "--boot-config", str(tmp_path / "config.txt"))
    assert "+ write 'i2c-dev spidev cdc_acm usbserial' to /etc/modules-load.d/touchline.conf" in lines


def test_lgpio_gets_a_directory_it_may_write() -> None:
    settings = unit_settings(UNIT.read_text())
    assert "LG_WD=/run/touchline" in " ".join(settings["Environment"])
    assert settings["RuntimeDirectory"] == ["touchline"]


def test_the_installer_sets_i2c_to_400_khz_and_builds_nothing(tmp_path: Path) -> None:
    lines = dry_run("--model", "zero2w", "--boot-config", str(tmp_path / "config.txt"))
    assert f"+ append 'dtparam=i2c_arm_baudrate=400000' to {tmp_path / 'config.txt'}" in lines
    apt = next(line for line in lines if line.startswith("+ apt-get install") and "python3-venv" in line)
    for package in ("python3-pil", "python3-spidev", "python3-smbus2", "python3-cbor2"):
        assert package in apt, "compiled modules come from Debian, so 32-bit Raspberry Pi OS needs no compiler"
    assert "python3-dev" not in apt
    assert any("python3 -m venv --system-site-packages" in line for line in lines)
    constraints = (SYSTEMD / "pi-constraints.txt").read_text().split()
    assert "cbor2<6" in constraints and "pillow<10" in constraints
    packages = [line for line in lines if " -m pip install " in line and "--upgrade pip" not in line and "mfrc522" not in line]
    assert packages and all("--constraint" in line for line in packages)


def test_the_project_accepts_debian_bookworms_pillow() -> None:
    from packaging.requirements import Requirement

    pillow = next(Requirement(r) for r in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
                  if r.lower().startswith("pillow"))
    assert pillow.specifier.contains("9.4.0"), "python3-pil in Bookworm is 9.4"


@pytest.mark.parametrize("script", ["install.sh", "uninstall.sh", "common.sh", "pi-check.sh"])
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
    pip_lines = " ".join(line for line in dry_run("--model", "pi4") if " -m pip install " in line)
    printed = pip_lines.replace("\\", "").split()  # the dry run quotes like the shell: rpi-lgpio\>=0.6
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
    config.write_text("dtparam=spi=on\ndtparam=i2c_arm=on\ndtoverlay=spi1-3cs\ndtparam=i2c_arm_baudrate=400000\n")
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
    assert len(appended) == 5
    assert "+ write 'i2c-dev spidev cdc_acm usbserial' to /etc/modules-load.d/touchline.conf" in lines
    ending_in_all = tmp_path / "all.txt"
    ending_in_all.write_text("[cm5]\ndtoverlay=dwc2\n[all]\n")
    assert not any("'[all]'" in line for line in dry_run("--model", "pi4", "--boot-config", str(ending_in_all)))
