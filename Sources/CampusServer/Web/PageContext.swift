import Mustache

/// What a template renders: the page's model, and around it the layout's values. A name is looked
/// up in the model first (a property that is nil stays nil), then in the layout.
struct PageContext: MustacheParent {
    let page: Mirror
    let layout: Mirror

    init(page: any PageModel, layout: Layout) {
        self.page = Mirror(reflecting: page)
        self.layout = Mirror(reflecting: layout)
    }

    func child(named name: String) -> Any? {
        if let found = page.children.first(where: { $0.label == name }) { return Self.unwrapped(found.value) }
        if let found = layout.children.first(where: { $0.label == name }) { return Self.unwrapped(found.value) }
        return nil
    }

    /// The value an optional holds, or nil.
    static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first?.value
    }
}
