namespace ConcurrencyLab.Reproduction.Claims;

/// <summary>
/// A build of the lab's trial probe (<c>src/ConcurrencyLab.BuildProbe</c>) a claim about builds is timed in: the
/// same trial code, compiled and published another way.
/// </summary>
internal enum ProbeBuild
{
    /// <summary>Framework-dependent, as the lab itself runs: the shared framework, the JIT.</summary>
    Framework,

    /// <summary>
    /// The delay post's note's command: self-contained, single file, trimmed. Its <c>PublishNativeAot=true</c> is not
    /// an MSBuild property (native AOT is <c>PublishAot</c>), so this build is trimmed and still runs on the JIT.
    /// </summary>
    AsNoted,

    /// <summary>The note's build without <c>PublishTrimmed</c>: self-contained and single file, so trimming is the one difference.</summary>
    AsNotedUntrimmed,

    /// <summary>Native AOT (<c>PublishAot=true</c>): compiled ahead of time, trimmed, no JIT.</summary>
    NativeAot,
}

/// <summary>How a probe build is written where a variant carries it: the value of its <see cref="Parameter"/>.</summary>
internal static class ProbeBuildValues
{
    /// <summary>The parameter a probe build's variants carry their build in: <c>channel:build=native-aot</c>.</summary>
    public const string Parameter = "build";

    /// <summary>The build's word: <c>framework</c>, <c>as-noted</c>, <c>untrimmed</c>, <c>native-aot</c>.</summary>
    public static string Word(this ProbeBuild build) => build switch
    {
        ProbeBuild.Framework => "framework",
        ProbeBuild.AsNoted => "as-noted",
        ProbeBuild.AsNotedUntrimmed => "untrimmed",
        _ => "native-aot",
    };
}
