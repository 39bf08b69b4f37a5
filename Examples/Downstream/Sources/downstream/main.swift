import DownstreamApp

// The app's code (its views, its recognizers, what this program does with them) is the
// DownstreamApp library, which the tests import as well.
runDownstreamProgram()
