/// How this module was compiled, for the test that keeps it optimised (Package.swift).
public enum SoundAnalysisBuild {
    /// False when compiled without optimisation. Not inlinable: the answer is this module's
    /// build configuration, not the caller's.
    public static var isOptimised: Bool { !_isDebugAssertConfiguration() }
}
