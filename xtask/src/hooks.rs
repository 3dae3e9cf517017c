//! The test rig's Solana programs: small Token-2022 transfer hooks written
//! in sBPF assembly (`tests/rig/hooks/*.s`), assembled here into the ELF
//! files the fixture deploys in LiteSVM (`tests/rig/build/hooks/*.so`), so
//! that no outside binary is needed.

use std::path::Path;

use anyhow::{bail, Context};
use sbpf_assembler::{Assembler, AssemblerOption, SbpfArch};

/// Assemble every `hooks/*.s` under `rig` into `build/hooks/*.so`.
pub fn assemble(rig: &Path) -> anyhow::Result<()> {
    let out = rig.join("build/hooks");
    std::fs::create_dir_all(&out)?;
    for entry in std::fs::read_dir(rig.join("hooks"))? {
        let path = entry?.path();
        if path.extension().is_none_or(|e| e != "s") {
            continue;
        }
        let source = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        // SBPF v0: the format every loader (and LiteSVM's) accepts.
        let elf =
            Assembler::new(AssemblerOption::default().with_arch(SbpfArch::V0)).assemble(&source);
        let elf = match elf {
            Ok(elf) => elf,
            Err(errors) => {
                let errors: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
                bail!("assembling {}: {}", path.display(), errors.join("; "));
            }
        };
        let name = path.file_stem().context("a hook's file has a name")?;
        std::fs::write(out.join(name).with_extension("so"), elf)?;
    }
    Ok(())
}
