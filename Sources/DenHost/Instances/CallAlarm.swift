import CDenSignals

/// The call alarm (den_call_alarm.h): a timer whose signal handler writes a prepared message and
/// ends the process, the only thing that can stop a call stuck on the thread that would stop it.
enum CallAlarm {
    /// Arms the alarm; false when it is armed already or the system would not make its timer.
    static func arm(after limit: Duration, message: String, status: Int32) -> Bool {
        let (seconds, attoseconds) = limit.components
        let limitSeconds = Double(seconds) + Double(attoseconds) / 1e18
        var message = message
        return message.withUTF8 { den_call_alarm_arm(limitSeconds, $0.baseAddress, $0.count, status) } == 0
    }

    /// Disarms it; never returns when the limit passed at this moment (the process is ending).
    static func disarm() {
        den_call_alarm_disarm()
    }
}
