/// How two records of one thing in an import become one. IIS describes a teacher in every
/// schedule they appear in, a room in every lesson, a faculty in every group; some of those
/// descriptions are partial. The later description wins, and what it leaves out is taken from the
/// earlier one, so a detail is never lost because a later source did not repeat it.
public protocol ImportMergeable {
    /// This (later) record, with what it leaves out taken from `earlier`.
    func filling(from earlier: Self) -> Self
}

extension Sequence where Element: ImportMergeable {
    /// One record per key, merged in order (``ImportMergeable/filling(from:)``).
    public func merged<Key: Hashable>(by key: (Element) -> Key) -> [Key: Element] {
        var result: [Key: Element] = [:]
        for item in self {
            let itemKey = key(item)
            result[itemKey] = result[itemKey].map { item.filling(from: $0) } ?? item
        }
        return result
    }
}

extension Faculty: ImportMergeable {
    public func filling(from earlier: Faculty) -> Faculty {
        Faculty(id: id, name: name ?? earlier.name, abbreviation: abbreviation)
    }
}

extension Speciality: ImportMergeable {
    public func filling(from earlier: Speciality) -> Speciality {
        var result = self
        result.code = code ?? earlier.code
        result.facultyID = facultyID ?? earlier.facultyID
        result.educationForm = educationForm ?? earlier.educationForm
        return result
    }
}

extension Department: ImportMergeable {
    public func filling(from earlier: Department) -> Department {
        Department(abbreviation: abbreviation, name: name ?? earlier.name, iisID: iisID ?? earlier.iisID)
    }
}

extension ImportedTeacher: ImportMergeable {
    public func filling(from earlier: ImportedTeacher) -> ImportedTeacher {
        var result = self
        result.middleName = middleName ?? earlier.middleName
        result.rank = rank ?? earlier.rank
        result.degree = degree ?? earlier.degree
        result.degreeAbbreviation = degreeAbbreviation ?? earlier.degreeAbbreviation
        result.departments = departments ?? earlier.departments
        result.photoURL = photoURL ?? earlier.photoURL
        result.email = email ?? earlier.email
        result.iisID = iisID ?? earlier.iisID
        return result
    }
}

extension ImportedRoom: ImportMergeable {
    public func filling(from earlier: ImportedRoom) -> ImportedRoom {
        var result = self
        result.floor = floor ?? earlier.floor
        result.type = type ?? earlier.type
        result.capacity = capacity ?? earlier.capacity
        result.note = note ?? earlier.note
        result.departmentAbbreviation = departmentAbbreviation ?? earlier.departmentAbbreviation
        result.iisID = iisID ?? earlier.iisID
        result.point = point ?? earlier.point
        return result
    }
}
