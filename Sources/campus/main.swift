import ArgumentParser
import NIOCore
import NIOPosix

// Swift concurrency runs on SwiftNIO's event loop threads instead of a pool of its own, which
// saves a thread switch on every request. (It needs the Swift runtime as shared libraries: with
// `--static-swift-stdlib` the hook is not exported and this does nothing.)
_ = NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()

await Campus.runFromCommandLine()
