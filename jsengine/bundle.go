package jsengine

func (e *engine) detectBundle(m *moduleInfo) *Bundle { return nil }
