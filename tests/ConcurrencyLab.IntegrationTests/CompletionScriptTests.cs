namespace ConcurrencyLab.IntegrationTests;

/// <summary>completion/conclab.bash as bash runs it at a Tab: the tool's own completions, and nothing run.</summary>
public sealed class CompletionScriptTests
{
    [SkippableFact]
    public async Task TheBashScript_CompletesScenariosVariantsAndWords_AndWritesNothing()
    {
        Skip.IfNot(File.Exists("/bin/bash"), "no bash here");
        using var folder = new TempFolder();
        var script = $$"""
            conclab() { dotnet '{{ProgramRunner.ConclabDll}}' "$@"; }
            source '{{Path.Combine(ProgramRunner.RepositoryRoot, "completion", "conclab.bash")}}'
            tab() {
              COMP_LINE="$1"; COMP_POINT=${#COMP_LINE}; read -ra COMP_WORDS <<< "$COMP_LINE"
              [ "${COMP_LINE: -1}" = " " ] && COMP_WORDS+=("")
              COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); _conclab_complete; echo "$1|${COMPREPLY[*]}"
            }
            tab "conclab run de"
            tab "conclab run delay --variants whenall,cha"
            tab "conclab run delay --timer "
            tab "conclab run delay --rep"
            tab "conclab run delay --variants \$(>made-by-substitution),\`>made-by-backticks\`,w"
            """;

        var run = await ProgramRunner.RunProgramAsync("/bin/bash", folder.Path, ["-c", script], TimeSpan.FromMinutes(2));

        Assert.True(run.ExitCode == 0, run.ToString());
        var lines = run.Output.ReplaceLineEndings("\n").Split('\n', StringSplitOptions.RemoveEmptyEntries).ToDictionary(l => l.Split('|')[0], l => l.Split('|')[1].Split(' '));
        Assert.Equal(["delay"], lines["conclab run de"]);
        Assert.Contains("whenall,channel", lines["conclab run delay --variants whenall,cha"]);
        Assert.All(lines["conclab run delay --variants whenall,cha"], c => Assert.StartsWith("whenall,channel", c, StringComparison.Ordinal));
        Assert.Equal(["precise", "task-delay"], lines["conclab run delay --timer "]);
        Assert.Equal(["--repeat", "--repeat-exactly"], lines["conclab run delay --rep"]);

        // The typed text is compared, never expanded: neither file is made.
        Assert.Empty(Directory.EnumerateFileSystemEntries(folder.Path));
    }
}
