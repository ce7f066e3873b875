// A breakdown baseline for `den render about`: hello world plus loading Foundation (as den does).
import Foundation

print("hello \(ProcessInfo.processInfo.processIdentifier > 0)")
