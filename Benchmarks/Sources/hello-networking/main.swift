// A breakdown baseline for `den render about`: hello world plus Foundation and
// FoundationNetworking (libcurl and its TLS/Kerberos/LDAP dependencies), which DenHost links.
import Foundation
import FoundationNetworking

print("hello \(ProcessInfo.processInfo.processIdentifier > 0) \(URLSession.self)")
