// The session documents' hand-written JSON form: a module asks `session.get` for the user at
// every step, and JSONDecoder's set-up cost more than the rest of the call. Plain forms only;
// JSONDecoder decides the rest (`WireDocument`).

extension SessionGetRequest: KeyDocument {}
extension SessionGetAnswer: OptionalValueDocument {}
extension SessionSetRequest: KeyValueDocument {}
extension SessionDeleteRequest: KeyDocument {}
extension SessionDeleteAnswer: DeletedDocument {}
