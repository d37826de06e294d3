namespace ConcurrencyLab.Claims;

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
